import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type Mod = typeof import('../../../webview-ui/src/ui/visibleText');

describe('webview tool cards: control characters in commands and paths are shown, not obeyed', () => {
  let M: Mod;
  before(async () => { M = await loadWebviewModule<Mod>('webview-ui/src/ui/visibleText.ts'); });

  it('a carriage return or escape sequence cannot hide the start of a command', () => {
    const spoof = 'rm -f x #\r\x1b[2KAllow run: echo hello';
    const shown = M.visibleBlock(spoof);
    assert.equal(shown, 'rm -f x #\\x0d\\x1b[2KAllow run: echo hello');
    assert.ok(!/[\r\x1b]/.test(shown));
  });

  it('bidi overrides and isolates (U+202A–U+202E, U+2066–U+2069) are shown as escapes', () => {
    for (let c = 0x202a; c <= 0x202e; c++) assert.equal(M.visibleBlock(`a${String.fromCharCode(c)}b`), `a\\u${c.toString(16)}b`);
    for (let c = 0x2066; c <= 0x2069; c++) assert.equal(M.visibleBlock(`a${String.fromCharCode(c)}b`), `a\\u${c.toString(16)}b`);
  });

  it('a command keeps its real newlines and tabs; a one-line cwd or path shows them as escapes', () => {
    assert.equal(M.visibleBlock('echo a\n\techo b\r\n'), 'echo a\n\techo b\n');
    assert.equal(M.visibleLine('src/a\nb\t.ts'), 'src/a\\nb\\t.ts');
    assert.equal(M.visibleLine('/home/dev/shop — ünïcode ok'), '/home/dev/shop — ünïcode ok');
  });
});
