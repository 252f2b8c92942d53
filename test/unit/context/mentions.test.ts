import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseMentions } from '../../../src/protocol/mentions';
import { resolveMentions } from '../../../src/core/mentions/resolveMentions';
import { withAttachments } from '../../../src/core/mentions/attachmentText';
import { rebuildMessages } from '../../../src/core/history/rebuildMessages';
import { makeHarness, type Harness } from '../tools/toolHarness';

describe('mentions: what "@" in a message means', () => {
  it('paths, line ranges, folders, quoted names and the keywords; not e-mail addresses or sentence marks', () => {
    const m = parseMentions('fix @src/cart.ts, see @src/cart.ts:12-20 and @src/ then @problems. Mail me@example.com about @"my notes.md" @git @terminal @selection');
    assert.deepEqual(m.map((x) => x.raw), ['src/cart.ts', 'src/cart.ts:12-20', 'src/', 'problems', 'my notes.md', 'git', 'terminal', 'selection']);
    assert.deepEqual(m[1], { kind: 'path', raw: 'src/cart.ts:12-20', path: 'src/cart.ts', lines: { start: 12, end: 20 } });
    assert.equal(m[3]?.kind, 'keyword');
  });

  it('the same mention twice is attached once', () => {
    assert.equal(parseMentions('@a.ts and again @a.ts').length, 1);
  });
});

describe('mentions: attaching what a message mentions', () => {
  let h: Harness;
  const env = () => ({ host: h.host, paths: h.ctx.paths });
  beforeEach(() => {
    h = makeHarness();
    h.write('src/cart.ts', 'export class Cart {}\nconst a = 1;\nconst b = 2;\n');
  });
  afterEach(() => h.cleanup());

  it('a file is attached with numbered lines and counted as read; a range attaches just those lines', async () => {
    const r = await resolveMentions('look at @src/cart.ts and @src/cart.ts:2-3', env());
    assert.deepEqual(r.attachments.map((a) => [a.kind, a.label]), [['file', 'src/cart.ts'], ['range', 'src/cart.ts:2-3']]);
    assert.equal(r.attachments[0]!.content, '1\texport class Cart {}\n2\tconst a = 1;\n3\tconst b = 2;\n4\t');
    assert.equal(r.attachments[1]!.content, '2\tconst a = 1;\n3\tconst b = 2;');
    assert.deepEqual(r.reads.map((x) => x.real), [path.join(h.ws, 'src/cart.ts')]);
  });

  it('a folder is a tree listing without ignored entries', async () => {
    h.write('.gitignore', '.env\n');
    h.write('.env', 'KEY=sk-live-123');
    h.write('src/util/math.ts', '');
    const r = await resolveMentions('@./', env());
    assert.equal(r.attachments[0]?.kind, 'folder');
    assert.match(r.attachments[0]!.content, /^src\/\n {2}cart\.ts\n {2}util\/\n {4}math\.ts$/m);
    assert.doesNotMatch(r.attachments[0]!.content, /\.env/);
  });

  it('never reaches outside the workspace, through a symlink, or into ignored files: each says why, nothing of it is attached', async () => {
    fs.writeFileSync(path.join(h.outside, 'secret.txt'), 'outside secret');
    fs.symlinkSync(path.join(h.outside, 'secret.txt'), path.join(h.ws, 'link.txt'));
    fs.symlinkSync(h.outside, path.join(h.ws, 'linkdir'));
    h.write('.gitignore', '.env\n');
    h.write('.env', 'KEY=sk-live-123');
    const r = await resolveMentions(`@link.txt @linkdir/secret.txt @${path.join(h.outside, 'secret.txt')} @../outside/secret.txt @.env @missing.ts`, env());
    assert.equal(r.attachments.length, 6);
    for (const a of r.attachments) {
      assert.equal(a.error, true, a.label);
      assert.equal(a.content, '');
    }
    assert.match(r.attachments[0]!.note!, /outside the workspace/);
    assert.match(r.attachments[4]!.note!, /ignore rules/);
    assert.match(r.attachments[5]!.note!, /no such file/);
    const sent = withAttachments('hi', r.attachments);
    assert.doesNotMatch(sent, /outside secret|sk-live/);
    assert.match(sent, /\[@\.env not attached: the ignore rules/);
  });

  it('@problems lists the editor\'s problems inside the workspace; without an editor it says so', async () => {
    const none = await resolveMentions('@problems', env());
    assert.match(none.attachments[0]!.note!, /no editor problems here/);
    h.host.diagnostics = { get: async () => [{ path: path.join(h.ws, 'src/cart.ts'), line: 2, severity: 'error', message: 'a is unused', source: 'ts' }, { path: path.join(h.outside, 'x.ts'), line: 1, severity: 'error', message: 'elsewhere' }] };
    const r = await resolveMentions('@problems', env());
    assert.equal(r.attachments[0]!.content, 'src/cart.ts:2 error: a is unused [ts]');
  });

  it('@git attaches the working-tree and staged diff without sections of ignored files', async () => {
    h.write('.tandemignore', 'secrets.ts\n');
    h.host.context = {
      gitChanges: async () => 'diff --git a/src/cart.ts b/src/cart.ts\n-old\n+new\ndiff --git a/secrets.ts b/secrets.ts\n+KEY=sk-live-123\n',
    };
    const r = await resolveMentions('@git', env());
    assert.equal(r.attachments[0]!.content, 'diff --git a/src/cart.ts b/src/cart.ts\n-old\n+new');
  });

  it('@terminal attaches the end of a long output and says it was cut', async () => {
    h.host.context = { terminalOutput: async () => `${'x'.repeat(30_000)}\nError: the end` };
    const r = await resolveMentions('@terminal', env());
    assert.match(r.attachments[0]!.content, /Error: the end$/);
    assert.match(r.attachments[0]!.note!, /cut: last/);
  });

  it('a large file is capped and says so; it is then not counted as read whole', async () => {
    h.write('big.txt', Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n'));
    const r = await resolveMentions('@big.txt', env());
    assert.ok(r.attachments[0]!.content.length <= 20_000);
    assert.match(r.attachments[0]!.note!, /^cut: first \d+ of 5000 lines attached$/);
    assert.equal(r.reads.length, 0);
  });

  it('the editor\'s context line, when the host gives one, for a file that may be read', async () => {
    h.host.context = { editorContext: async () => ({ path: path.join(h.ws, 'src/cart.ts'), visible: { start: 1, end: 40 }, selection: { start: 2, end: 3 } }) };
    const r = await resolveMentions('hello', env(), { withEditorContext: true });
    assert.deepEqual(r.attachments, [{ kind: 'context', label: 'editor', content: 'Active editor: src/cart.ts, lines 1-40 visible, selection lines 2-3' }]);
    h.write('.gitignore', 'src/\n');
    const ignored = await resolveMentions('hello', env(), { withEditorContext: true });
    assert.deepEqual(ignored.attachments, []);
  });

  it('@selection attaches the editor\'s selected lines (same checks as a path); without one it says how to mention lines', async () => {
    const none = await resolveMentions('@selection', env());
    assert.match(none.attachments[0]!.note!, /no editor selection here.*@path:12-20/);
    h.host.context = { activeSelection: async () => ({ path: path.join(h.ws, 'src/cart.ts'), lines: { start: 2, end: 3 } }) };
    const r = await resolveMentions('@selection', env());
    assert.deepEqual(r.attachments, [{ kind: 'range', label: 'selection (src/cart.ts:2-3)', content: '2\tconst a = 1;\n3\tconst b = 2;' }]);
    h.write('.gitignore', 'src/\n');
    const ignored = await resolveMentions('@selection', env());
    assert.match(ignored.attachments[0]!.note!, /ignore rules/);
  });

  it('a resumed task resends each message with what was attached to it', () => {
    const attachments = [{ kind: 'file' as const, label: 'src/cart.ts', content: '1\texport class Cart {}' }];
    const msgs = rebuildMessages([{ kind: 'text', id: 'u1', author: 'user', text: 'fix @src/cart.ts', attachments, ts: 1 }]);
    assert.equal(msgs[0]?.content, withAttachments('fix @src/cart.ts', attachments));
    assert.match(String(msgs[0]?.content), /<attachment mention="@src\/cart\.ts" kind="file">\n1\texport class Cart \{\}\n<\/attachment>/);
  });
});
