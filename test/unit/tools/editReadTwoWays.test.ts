/**
 * Repairs that could be read two ways, each shape cut down from a wrong write seen on other
 * people's commits (test/fixtures/foreign-commits), through the real edit_file and write_file on
 * real files. Held: where two repairs fit and give different text, the file's own evidence decides
 * or the edit is refused naming both readings; a lazy rebuild keeps the file's blank lines between
 * top-level definitions and never writes a block twice that the file and the text have once.
 */
import * as assert from 'node:assert/strict';
import { editFileTool } from '../../../src/core/tools/editFile';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { makeHarness } from './toolHarness';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { foreignCorpora, type Commit } from '../../support/damagedEdits';

const LAZY_COMMITS = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'lazy-commits');

async function call(file: string, original: string, args: Record<string, unknown>): Promise<{ isError: boolean; content: string; after: string }> {
  const h = makeHarness();
  try {
    const abs = h.write(file, original);
    h.reads.record(abs, original);
    const tool = 'content' in args ? writeFileTool : editFileTool;
    const r = await h.call(tool, { path: file, ...args });
    return { isError: !!r.isError, content: r.content, after: h.read(file) };
  } finally {
    h.cleanup();
  }
}

const IMPORTS = `import sys

ALLOWED = {
    "os",
    "sys",
}

if sys.platform == "win32":
    ALLOWED.update(["ctypes", "msvcrt"])


def test_light_imports():
    assert "os" in ALLOWED
`;

describe('edit repairs that could be read two ways', function () {
  this.timeout(30_000);

  it('Python sent two columns too shallow (4 → 2, column 0 untouched): a new nested line lands one unit deeper, not at double the indent', async () => {
    // Old lines at 0 and 2 fit both "every indented line 2 columns shallower" and "the unit halved";
    // the new lines at 6 and 10 are 8 and 12 by the first, 12 and 20 by the second. The file steps by 4.
    const r = await call('imports.py', IMPORTS, {
      edits: [{
        old_text: 'if sys.platform == "win32":\n  ALLOWED.update(["ctypes", "msvcrt"])',
        new_text: 'if sys.platform == "win32":\n  ALLOWED.update(\n      [\n          "ctypes",\n          "msvcrt",\n      ]\n  )',
      }],
    });
    assert.equal(r.isError, false, r.content);
    assert.equal(r.after, IMPORTS.replace(
      '    ALLOWED.update(["ctypes", "msvcrt"])',
      '    ALLOWED.update(\n        [\n            "ctypes",\n            "msvcrt",\n        ]\n    )',
    ));
  });

  it('Python body lines two columns too shallow, then a new function: the function stays at column 0, not nested in the one above', async () => {
    // Old lines all at 2 (the file's 4): "2 columns off" would put the new def at 2, inside test_help.
    const src = 'from cli import cli\n\n\ndef test_help(runner):\n    result = runner.invoke(cli, ["--help"])\n    assert not result.exception\n    assert "Usage" in result.output\n';
    const r = await call('test_cli.py', src, {
      edits: [{
        old_text: '  result = runner.invoke(cli, ["--help"])\n  assert not result.exception\n  assert "Usage" in result.output',
        new_text: '  result = runner.invoke(cli, ["--help"])\n  assert not result.exception\n  assert "Usage" in result.output\n\n\ndef test_version(runner):\n  result = runner.invoke(cli, ["--version"])\n  assert "1.0" in result.output',
      }],
    });
    assert.equal(r.isError, false, r.content);
    assert.equal(r.after, `${src}\n\ndef test_version(runner):\n    result = runner.invoke(cli, ["--version"])\n    assert "1.0" in result.output\n`);
  });

  it('where the file\'s indentation cannot tell the two readings apart, the edit is refused naming both, and nothing is written', async () => {
    // The new lines only go deeper by more than a unit under either reading (10 after 2, then 6).
    const r = await call('imports.py', IMPORTS, {
      edits: [{
        old_text: 'if sys.platform == "win32":\n  ALLOWED.update(["ctypes", "msvcrt"])',
        new_text: 'if sys.platform == "win32":\n  ALLOWED.update(["ctypes", "msvcrt"])\n          # a comment two levels in\n      # and one',
      }],
    });
    assert.equal(r.isError, true, `written:\n${r.after}`);
    assert.equal(r.after, IMPORTS);
    assert.match(r.content, /read two ways[\s\S]*columns shallower[\s\S]*indent unit/);
  });

  // Two-space Python, as Google's style writes it: one level too shallow with column 0 untouched
  // puts the top level and the first level both at column 0.
  const TWO_SPACE = `import os


def load(path):
  with open(path) as f:
    data = f.read()
  return data


def save(path, data):
  with open(path, "w") as f:
    f.write(data)
`;

  it('Python one level too shallow with the top level untouched (a partial shift): new lines land where Python allows one place', async () => {
    // On main: refused ("lines the model indented alike are indented differently in the file").
    const r = await call('store.py', TWO_SPACE, {
      edits: [{
        old_text: 'def load(path):\nwith open(path) as f:\n  data = f.read()\nreturn data',
        // After "def load(path):" a statement is in the body; "log(path)" comes before "return data", which is in it.
        new_text: 'def load(path):\nif not os.path.exists(path):\n  return None\nwith open(path) as f:\n  data = f.read()\nlog(path)\nreturn data',
      }],
    });
    assert.equal(r.isError, false, r.content);
    assert.equal(r.after, TWO_SPACE.replace(
      'def load(path):\n  with open(path) as f:\n    data = f.read()\n  return data',
      'def load(path):\n  if not os.path.exists(path):\n    return None\n  with open(path) as f:\n    data = f.read()\n  log(path)\n  return data',
    ));
    // A line changed in place keeps its line's place.
    const flat = await call('store.py', TWO_SPACE, { edits: [{ old_text: 'def save(path, data):\nwith open(path, "w") as f:\n  f.write(data)', new_text: 'def save(path, data):\nwith open(path, "a") as f:\n  f.write(data)' }] });
    assert.equal(flat.isError, false, flat.content);
    assert.equal(flat.after, TWO_SPACE.replace('open(path, "w")', 'open(path, "a")'));
  });

  it('one level too shallow, column 0 for two levels: lines new_text shares with old_text at its start and end, and lines changed in place, keep their places (shapes of cobra\'s and click\'s commits)', async () => {
    // Go (cobra's flag_groups.go): old_text starts at the import block's ")"; on main new_text's
    // own first line, that ")", could not be placed ("cannot tell how to indent").
    const go = 'package cobra\n\nimport (\n\t"fmt"\n)\n\nconst (\n\trequiredAsGroup   = "cobra_annotation_required_if_others_set"\n\toneRequired       = "cobra_annotation_one_required"\n)\n\nfunc f() { fmt.Println(requiredAsGroup) }\n';
    const r = await call('flag_groups.go', go, {
      edits: [{
        old_text: ')\n\nconst (\nrequiredAsGroup   = "cobra_annotation_required_if_others_set"\noneRequired       = "cobra_annotation_one_required"\n)',
        new_text: ')\n\nconst (\nrequiredAsGroupAnnotation = "cobra_annotation_required_if_others_set"\noneRequiredAnnotation     = "cobra_annotation_one_required"\n)',
      }],
    });
    assert.equal(r.isError, false, r.content);
    assert.equal(r.after, go.replace('\trequiredAsGroup   =', '\trequiredAsGroupAnnotation =').replace('\toneRequired       =', '\toneRequiredAnnotation     ='));
    // YAML (click's pre-commit config): "rev:" changed in place under "- repo:"; on main refused
    // (column 0 stood for the list's items and their keys alike).
    const yaml = 'repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: 488940d9  # frozen: v0.14.5\n  hooks:\n    - id: ruff\n- repo: https://github.com/astral-sh/uv-pre-commit\n  rev: b6675a11  # frozen: 0.9.9\n  hooks:\n    - id: uv-lock\n';
    const y = await call('.pre-commit-config.yaml', yaml, {
      edits: [{
        old_text: '- repo: https://github.com/astral-sh/ruff-pre-commit\nrev: 488940d9  # frozen: v0.14.5\nhooks:\n  - id: ruff',
        new_text: '- repo: https://github.com/astral-sh/ruff-pre-commit\nrev: 4924b0e0  # frozen: v0.15.6\nhooks:\n  - id: ruff',
      }],
    });
    assert.equal(y.isError, false, y.content);
    assert.equal(y.after, yaml.replace('rev: 488940d9  # frozen: v0.14.5', 'rev: 4924b0e0  # frozen: v0.15.6'));
    // A new YAML line at column 0 that is no old line is not guessed: nothing places it.
    const n = await call('.pre-commit-config.yaml', yaml, {
      edits: [{
        old_text: '- repo: https://github.com/astral-sh/ruff-pre-commit\nrev: 488940d9  # frozen: v0.14.5\nhooks:\n  - id: ruff',
        new_text: '- repo: https://github.com/astral-sh/ruff-pre-commit\nrev: 488940d9  # frozen: v0.14.5\nname: ruff\nhooks:\n  - id: ruff',
      }],
    });
    assert.equal(n.isError, true, `written:\n${n.after}`);
    assert.equal(n.after, yaml);
  });

  it('Python one level too shallow where a new line could end the function or go on in it: refused naming both readings, nothing written', async () => {
    // "CACHE = {}" after "return data": at column 0 a module constant, one level in dead code in
    // load(); both parse, and nothing after it tells.
    const r = await call('store.py', TWO_SPACE, {
      edits: [{
        old_text: 'def load(path):\nwith open(path) as f:\n  data = f.read()\nreturn data',
        new_text: 'def load(path):\nwith open(path) as f:\n  data = f.read()\nreturn data\n\n\nCACHE = {}',
      }],
    });
    assert.equal(r.isError, true, `written:\n${r.after}`);
    assert.equal(r.after, TWO_SPACE);
    assert.match(r.content, /read two ways[\s\S]*"CACHE = \{\}" is indented not at all[\s\S]*indented 2 spaces/);
  });

  const MODULE = `import os


def first(a):
    """First."""
    return a + 1


def second(b):
    """Second."""
    x = b * 2
    return x


def third(c):
    return c - 1
`;

  it('a lazy Python rewrite with no blank lines beside its markers keeps the two blank lines between top-level functions', async () => {
    for (const content of [
      '# ... existing code ...\ndef second(b):\n    """Second."""\n    x = b * 3\n    return x\n# ... existing code ...\n',
      'import os\n# ... existing code ...\ndef second(b):\n    """Second."""\n    x = b * 3\n    return x\n# ... existing code ...\n',
    ]) {
      const r = await call('mod.py', MODULE, { content });
      assert.equal(r.isError, false, r.content);
      assert.equal(r.after, MODULE.replace('b * 2', 'b * 3'), content);
    }
  });

  it('TypeScript test of repeated blocks: a marker kept up to a "});" that recurs ends where the written lines continue the file, so the old block is not kept beside its new version', async () => {
    // ky's browser test (a real commit): new_text is a marker, "\t});" and the changed
    // server.post(…) block; "\t});" closes server.get and server.post alike. On main the marker
    // ran to the second one: the old server.post block was kept and the new one written after it.
    const c = foreignCorpora().get('ky')!.find((x) => x.path === 'test/browser.ts')!;
    const start = c.pre.indexOf("browserTest('onUploadProgress is silently ignored");
    const end = c.pre.indexOf("\tserver.get('/', (_request, response) => {", c.pre.indexOf("defaultBrowsersTest('FormData with searchParams'", start));
    const old_text = c.pre.slice(start, end).trimEnd();
    const newStart = c.post.indexOf("browserTest('onUploadProgress is silently ignored");
    const full = c.post.slice(newStart, c.post.indexOf("\tserver.get('/', (_request, response) => {", c.post.indexOf("defaultBrowsersTest('FormData with searchParams'", newStart))).trimEnd();
    // The model elides the test's first lines and keeps "\t});" (server.get's) to show where the change goes.
    const new_text = `// ... existing code ...\n${full.slice(full.indexOf('\t});'))}`;
    const r = await call('browser.ts', c.pre, { edits: [{ old_text, new_text }] });
    assert.equal(r.isError, false, r.content);
    assert.equal(r.after, c.post);
  });

  it('a marker that would keep an old block beside its new version is refused naming the block, never written twice (click\'s aliases example, a real commit)', async () => {
    // The commit changes one comment line of get_command. The model sends the method as old_text and,
    // as new_text, a marker for the lines before the change and the rest written out. On main the
    // rebuild kept the old comment and the 16 lines after it (its if/matches block) and wrote the new
    // ones after them: the block twice.
    const c = JSON.parse(fs.readFileSync(path.join(LAZY_COMMITS, 'click-10.json'), 'utf8')) as Commit;
    assert.equal(c.path, 'examples/aliases/aliases.py');
    const from = c.pre.indexOf('    def get_command(self, ctx, cmd_name):');
    const to = c.pre.indexOf('if x.lower().startswith(cmd_name.lower())]', from) + 'if x.lower().startswith(cmd_name.lower())]'.length;
    const old_text = c.pre.slice(from, to);
    const changed = old_text.replace('lookup an explicit', 'look up an explicit');
    const new_text = `        # ... existing code ...\n\n${changed.slice(changed.indexOf('        # Step three'))}`;
    const r = await call('aliases.py', c.pre, { edits: [{ old_text, new_text }] });
    assert.ok(r.after === c.pre || r.after === c.post, `written wrong:\n${r.after.slice(from, from + 2500)}`);
    if (r.isError) assert.match(r.content, /"if cmd_name in cfg\.aliases:" and the \d+ lines after it would appear twice/);
  });

  it('Go one level too shallow where the neighbours misplace old_text\'s own lines (a template in a string): refused, not guessed', async () => {
    // Lines of a template at column 0 right after "import (": the rule that places new lines by
    // their neighbours would put them one level in, so it says nothing of this code.
    const src = 'package tpl\n\nfunc Main() []byte {\n\treturn []byte(`package cmd\n\nimport (\n{{- if .Viper }}\n\t"fmt"\n{{ end }}\n\t"github.com/spf13/cobra"\n)\n`)\n}\n';
    const r = await call('tpl.go', src, {
      edits: [{
        old_text: 'import (\n{{- if .Viper }}\n"fmt"\n{{ end }}\n"github.com/spf13/cobra"',
        new_text: 'import (\n{{- if .Viper }}\n"fmt"{{ end }}\n"os"\n"github.com/spf13/cobra"',
      }],
    });
    const want = src.replace('\t"fmt"\n{{ end }}\n', '\t"fmt"{{ end }}\n\t"os"\n');
    assert.ok(r.after === src || r.after === want, `written wrong:\n${r.after}`);
    assert.equal(r.isError, r.after === src, r.content);
  });
});
