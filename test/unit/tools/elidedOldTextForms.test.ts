/**
 * Elided old text the way models write it on other people's code: the marker in another
 * language's comment form (`// …` in Python, `# …` in TypeScript) and at an indentation that is
 * not the file's (four spaces whatever the file). Where the lines around it name one region it
 * lands; where it could stand for several it is refused naming them, and nothing is written.
 */
import * as assert from 'node:assert/strict';
import { editFileTool } from '../../../src/core/tools/editFile';
import { makeHarness } from './toolHarness';

async function edit(file: string, original: string, old_text: string, new_text: string): Promise<{ isError: boolean; content: string; after: string }> {
  const h = makeHarness();
  try {
    const abs = h.write(file, original);
    h.reads.record(abs, original);
    const r = await h.call(editFileTool, { path: file, edits: [{ old_text, new_text }] });
    return { isError: !!r.isError, content: r.content, after: h.read(file) };
  } finally {
    h.cleanup();
  }
}

const method = (n: number) => `    def handler_${n}(self, request):
        if request.method == "GET":
            data = self.load(request)
            return self.render(data)
        return None
`;
const VIEWS = `class Views:\n${[1, 2, 3].map(method).join('\n')}`;

const block = (n: number) => `test('request ${n}', async t => {
\tconst server = await createServer();
\tserver.get('/', (request, response) => {
\t\tresponse.end(request.method);
\t});
\tconst fixture = {x: ${n}};
\tt.is(await ky(server.url).text(), 'GET');
\tawait server.close();
});
`;
const TESTS = `import test from 'ava';\n\n${[1, 2, 3].map(block).join('\n')}`;

describe('elided old text in the forms models write', function () {
  this.timeout(30_000);

  it('Python: a marker written "// …", "# …" or "/* … */" at an indentation not the file\'s lands in the one method the lines around it name', async () => {
    const want = VIEWS.replace('            return self.render(data)\n        return None\n\n    def handler_3', '            return self.render(data)\n        return self.missing(request)\n\n    def handler_3');
    for (const marker of ['    // ... existing code ...', '# ...', '            /* ... */']) {
      const r = await edit('views.py', VIEWS, `    def handler_2(self, request):\n${marker}\n        return None`,
        '    def handler_2(self, request):\n        if request.method == "GET":\n            data = self.load(request)\n            return self.render(data)\n        return self.missing(request)');
      assert.equal(r.isError, false, `${marker}: ${r.content}`);
      assert.equal(r.after, want, marker);
    }
  });

  it('TypeScript tests of repeated blocks: a "# …" marker at four spaces in a tab-indented file lands in the test the lines around it name', async () => {
    const r = await edit('get.ts', TESTS, "test('request 2', async t => {\n    # ...\n\tt.is(await ky(server.url).text(), 'GET');",
      "test('request 2', async t => {\n\tconst server = await createServer();\n\tserver.get('/', (request, response) => {\n\t\tresponse.end(request.method);\n\t});\n\tconst fixture = {x: 2};\n\tt.is(await ky(server.url).text(), 'GET', 'two');");
    assert.equal(r.isError, false, r.content);
    assert.equal(r.after, TESTS.replace("{x: 2};\n\tt.is(await ky(server.url).text(), 'GET');", "{x: 2};\n\tt.is(await ky(server.url).text(), 'GET', 'two');"));
  });

  it('a marker the lines around it leave in any of the repeated tests is refused naming each region, and nothing is written', async () => {
    const r = await edit('get.ts', TESTS, '\tconst server = await createServer();\n    # ...\n\tawait server.close();', '\tconst server = await createServer();\n\tawait server.close();');
    assert.equal(r.isError, true, `written:\n${r.after}`);
    assert.equal(r.after, TESTS);
    assert.match(r.content, /"# \.\.\."[\s\S]*lines 4-10 and 14-20 and 24-30/);
  });
});
