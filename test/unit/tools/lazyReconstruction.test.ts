/**
 * Lazy rewrites read by the file's syntax, one shape at a time, through the real write_file and
 * edit_file on real files: each shape is one the corpus of real commits (lazyEditCorpus.ts)
 * refused, cut down to what makes it hard. Held: the file is exactly what the model meant, or the
 * edit is refused with the file untouched — never anything else.
 */
import * as assert from 'node:assert/strict';
import { editFileTool } from '../../../src/core/tools/editFile';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { makeHarness } from './toolHarness';

async function write(file: string, original: string, lazy: string): Promise<{ isError: boolean; content: string; after: string }> {
  const h = makeHarness();
  try {
    const abs = h.write(file, original);
    h.reads.record(abs, original);
    const r = await h.call(writeFileTool, { path: file, content: lazy });
    return { isError: !!r.isError, content: r.content, after: h.read(file) };
  } finally {
    h.cleanup();
  }
}

async function edit(file: string, original: string, edits: { old_text: string; new_text: string }[]): Promise<{ isError: boolean; content: string; after: string }> {
  const h = makeHarness();
  try {
    const abs = h.write(file, original);
    h.reads.record(abs, original);
    const r = await h.call(editFileTool, { path: file, edits });
    return { isError: !!r.isError, content: r.content, after: h.read(file) };
  } finally {
    h.cleanup();
  }
}

async function landsAs(file: string, original: string, lazy: string, expected: string) {
  const r = await write(file, original, lazy);
  assert.equal(r.isError, false, r.content);
  assert.equal(r.after, expected);
}

async function refused(file: string, original: string, lazy: string, says: RegExp) {
  const r = await write(file, original, lazy);
  assert.equal(r.isError, true, `written:\n${r.after}`);
  assert.equal(r.after, original);
  assert.match(r.content, says);
}

describe('lazy rewrites read by structure', function () {
  this.timeout(20_000);

  it('Python: a marker on its own before a body\'s first statement, a blank line between, keeps the body\'s first statements', async () => {
    const original = [
      'class HelpFormatter:',
      '    """Formats help."""',
      '',
      '    def __init__(self, width=None):',
      '        import shutil',
      '',
      '        self.indent = 2',
      '        if max_width is None:',
      '            max_width = 80',
      '        if width is None:',
      '            width = 80',
      '        self.width = width',
      '',
      '    def write(self, s):',
      '        self.buffer.append(s)',
      '',
    ].join('\n');
    const lazy = [
      'class HelpFormatter:',
      '    # ...',
      '',
      '    def __init__(self, width=None):',
      '        self.indent = 2',
      '        # ... existing code ...',
      '        if width is None:',
      '            import shutil',
      '',
      '            width = 80',
      '        self.width = width',
      '',
      '    # ... rest of the code unchanged ...',
      '',
    ].join('\n');
    await landsAs('fmt.py', original, lazy, original.replace('        import shutil\n\n', '').replace('        if width is None:\n', '        if width is None:\n            import shutil\n\n'));
  });

  it('Python: a marker between "else:" and a blank line keeps the statements at the start of the else body', async () => {
    const original = [
      'try:',
      '    from ctypes import pythonapi',
      'except ImportError:',
      '    get_buffer = None',
      'else:',
      '',
      '    class Py_buffer(Structure):',
      '        _fields_ = []',
      '',
      '    PyObject_GetBuffer = pythonapi.PyObject_GetBuffer',
      '',
      '    def get_buffer(obj):',
      '        buf = Py_buffer()',
      '        return buf.value',
      '',
    ].join('\n');
    const lazy = [
      'try:',
      '    # ... rest of the code unchanged ...',
      'else:',
      '',
      '    # existing code here',
      '',
      '    def get_buffer(obj):',
      '        buf = Py_buffer()',
      '        return buf.value or None',
      '',
    ].join('\n');
    await landsAs('con.py', original, lazy, original.replace('return buf.value\n', 'return buf.value or None\n'));
  });

  it("Python: a body's leading comments are its members, wherever the grammar hangs them (a comment the text keeps is not kept twice)", async () => {
    const original = [
      'class AliasedGroup(click.Group):',
      '    def get_command(self, ctx, cmd_name):',
      '        # Step one: builtin commands as normal',
      '        rv = click.Group.get_command(self, ctx, cmd_name)',
      '        if rv is not None:',
      '            return rv',
      '',
      "        # Step two: find the config object and ensure it's there.",
      '        # This will create the config object is missing.',
      '        cfg = ctx.ensure_object(Config)',
      '',
      '        # Step three: lookup an explicit command alias in the config',
      '        if cmd_name in cfg.aliases:',
      '            return click.Group.get_command(self, ctx, cfg.aliases[cmd_name])',
      '        return None',
      '',
    ].join('\n');
    const lazy = [
      'class AliasedGroup(click.Group):',
      '    def get_command(self, ctx, cmd_name):',
      '        # Step one: builtin commands as normal',
      '        # ... same as before ...',
      '        # This will create the config object is missing.',
      '        cfg = ctx.ensure_object(Config)',
      '',
      '        # Step three: look up an explicit command alias in the config',
      '        if cmd_name in cfg.aliases:',
      '            return click.Group.get_command(self, ctx, cfg.aliases[cmd_name])',
      '        # rest of the file unchanged',
      '',
    ].join('\n');
    await landsAs('aliases.py', original, lazy, original.replace('lookup an explicit', 'look up an explicit'));
  });

  it('Python: statements replaced after the last unchanged one are new there, though alike to statements a marker keeps above', async () => {
    const original = [
      'class HelpFormatter:',
      '    def __init__(self, indent_increment=2, width=None):',
      '        self.indent_increment = indent_increment',
      '        if width is None:',
      '            width = 78',
      '        self.width = width',
      '        self.current_indent: int = 0',
      '        self.buffer: list[str] = []',
      '',
      '    def write(self, string):',
      '        self.buffer.append(string)',
      '',
    ].join('\n');
    const lazy = [
      'class HelpFormatter:',
      '    def __init__(self, indent_increment=2, width=None):',
      '        # ... rest of the code unchanged ...',
      '        self.width = width',
      '        self.current_indent = 0',
      '        self.buffer = []',
      '',
      '    # existing code here',
      '',
    ].join('\n');
    await landsAs('fmt.py', original, lazy, original.replace('self.current_indent: int = 0', 'self.current_indent = 0').replace('self.buffer: list[str] = []', 'self.buffer = []'));
  });

  it('but a function the text writes again elsewhere, by the name a marker keeps, is refused naming the marker', async () => {
    const original = ['def a():', '    return 1', '', '', 'def b():', '    return 2', '', '', 'def c():', '    return 3', ''].join('\n');
    const lazy = ['# ... existing code ...', '', '', 'def c():', '    return 3', '', '', 'def a():', '    return 10', ''].join('\n');
    await refused('m.py', original, lazy, /existing code/);
  });

  it('Go: a changed declaration with no name between two markers takes the place of the one declaration much like it', async () => {
    const original = [
      'package cobra',
      '',
      'import (',
      '\t"fmt"',
      '\t"log"',
      '\t"os"',
      ')',
      '',
      'const (',
      '\trequiredAsGroup   = "cobra_annotation_required_if_others_set"',
      '\toneRequired       = "cobra_annotation_one_required"',
      '\tmutuallyExclusive = "cobra_annotation_mutually_exclusive"',
      ')',
      '',
      '// MarkFlagsRequiredTogether marks the given flags.',
      'func (c *Command) MarkFlagsRequiredTogether(flagNames ...string) {',
      '\tc.mergePersistentFlags()',
      '}',
      '',
      'func (c *Command) Other() {',
      '\tfmt.Println(os.Args)',
      '}',
      '',
    ].join('\n');
    const lazy = [
      '// ... same as before ...',
      '',
      'import (',
      '\t"errors"',
      '\t"fmt"',
      '\t"os"',
      ')',
      '',
      'const (',
      '\trequiredAsGroupAnnotation   = "cobra_annotation_required_if_others_set"',
      '\toneRequiredAnnotation       = "cobra_annotation_one_required"',
      '\tmutuallyExclusiveAnnotation = "cobra_annotation_mutually_exclusive"',
      ')',
      '',
      '/* rest of the file unchanged */',
      '',
    ].join('\n');
    const expected = original
      .replace('\t"fmt"\n\t"log"\n', '\t"errors"\n\t"fmt"\n')
      .replace(/(requiredAsGroup|oneRequired|mutuallyExclusive)( +)=/g, (_, n: string, sp: string) => `${n}Annotation${sp}=`);
    await landsAs('flag_groups.go', original, lazy, expected);
  });

  it('but a new function between two markers, much like one of the file under another name, is refused: it may be new or a rename', async () => {
    const original = ['package p', '', 'func A(x int) int {', '\treturn x * 2', '}', '', 'func B(x int) int {', '\treturn x * 3', '}', '', 'func C() {}', ''].join('\n');
    const lazy = ['// ... existing code ...', '', 'func D(x int) int {', '\treturn x * 2', '}', '', '// ... existing code ...', ''].join('\n');
    await refused('p.go', original, lazy, /existing code/);
  });

  describe('Python: a marker in place of a definition\'s first decorators keeps them', () => {
    const original = [
      '@cli.command("blur")',
      '@processor',
      'def blur_cmd(images, radius):',
      '    yield from images',
      '',
      '',
      '@cli.command("smoothen")',
      '@click.option("-i", "--iterations", default=1, show_default=True,',
      '              help="How many iterations of the smoothen filter to run.")',
      '@processor',
      'def smoothen_cmd(images, iterations):',
      '    for x in xrange(iterations):',
      '        yield x',
      '',
      '',
      '@cli.command("emboss")',
      '@processor',
      'def emboss_cmd(images):',
      '    yield from images',
      '',
    ].join('\n');
    const expected = original.replace('xrange(', 'range(');

    it('the marker before the definition\'s last decorator', async () => {
      const lazy = ['# ... same as before ...', '', '', '# rest of the file unchanged', '@processor', 'def smoothen_cmd(images, iterations):', '    for x in range(iterations):', '        yield x', '', '', '# ... existing code ...', ''].join('\n');
      await landsAs('imagepipe.py', original, lazy, expected);
    });

    it('the marker before the def itself, with the code above it', async () => {
      const lazy = ['# ...', '', '', '# ... rest of the code unchanged ...', 'def smoothen_cmd(images, iterations):', '    for x in range(iterations):', '        yield x', '', '', '# existing code here', ''].join('\n');
      await landsAs('imagepipe.py', original, lazy, expected);
    });
  });

  describe('edit_file: an old_text with markers read by the syntax tree', () => {
    const original = [
      'class T(unittest.TestCase):',
      '    def test_a(self):',
      '        a = make()',
      '        ok = a.run()',
      '        self.assertTrue(ok)',
      '',
      '    def test_b(self):',
      '        b = make()',
      '        ok = b.stop()',
      '        self.assertTrue(ok)',
      '',
    ].join('\n');

    it('a marker stands for statements of the body it is in: the old text ends in that body, though its last line recurs further down', async () => {
      const r = await edit('t.py', original, [{ old_text: '    def test_a(self):\n        # ...\n        self.assertTrue(ok)', new_text: '    def test_a(self):\n        # ...\n        self.assertTrue(ok and a.fast)' }]);
      assert.equal(r.isError, false, r.content);
      assert.equal(r.after, original.replace('        self.assertTrue(ok)\n\n', '        self.assertTrue(ok and a.fast)\n\n'));
    });

    it('an old text whose marker could stand in either body is refused, naming the marker', async () => {
      const twins = original.replace('b = make()', 'a = make()');
      const r = await edit('t.py', twins, [{ old_text: '        a = make()\n        # ...\n        self.assertTrue(ok)', new_text: '        a = make()\n        # ...\n        self.assertTrue(ok is True)' }]);
      assert.equal(r.isError, true, r.after);
      assert.equal(r.after, twins);
      assert.match(r.content, /marker "# \.\.\."/);
    });
  });

  describe('a function renamed (a slip of spelling fixed) with its body elided', () => {
    const fn = (name: string, flag: string) => [`func ${name}(t *testing.T) {`, '\tc := &cobra.Command{}', `\tc.Flags().StringP("${flag}", "", "", "")`, '\tbuf := new(bytes.Buffer)', '\tif err := GenMan(c, nil, buf); err != nil {', '\t\tt.Fatal(err)', '\t}', '}', ''];
    const original = ['package doc', '', ...fn('TestManPrintFlagsShowsDefaultValues', 'foo'), ...fn('TestManPrintFlagsHidesShortDeperecated', 'bar'), ...fn('TestGenManCommand', 'baz')].join('\n');

    it('pairs with the one function whose name is a near spelling of the new one', async () => {
      const lazy = ['// existing code here', '', 'func TestManPrintFlagsHidesShortDeprecated(t *testing.T) {', '\tc := &cobra.Command{}', '\t// ... same as before ...', '}', '', '/* rest of the file unchanged */', ''].join('\n');
      await landsAs('man_docs_test.go', original, lazy, original.replace('HidesShortDeperecated', 'HidesShortDeprecated'));
    });

    it('is refused when two functions have names that near', async () => {
      const twins = original.replace('TestGenManCommand', 'TestManPrintFlagsHidesShortDeprecatedX');
      const lazy = ['// existing code here', '', 'func TestManPrintFlagsHidesShortDeprecate(t *testing.T) {', '\tc := &cobra.Command{}', '\t// ... same as before ...', '}', '', '/* rest of the file unchanged */', ''].join('\n');
      await refused('man_docs_test.go', twins, lazy, /marker/);
    });
  });
});
