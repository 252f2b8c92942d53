import assert from 'node:assert/strict';
import { loadWebviewModule } from './loadWebviewModule';

type Md = typeof import('../../../webview-ui/src/markdown/renderMarkdown');

describe('webview: paths in model answers link to the editor', () => {
  let md: Md;
  before(async () => {
    md = await loadWebviewModule<Md>('webview-ui/src/markdown/renderMarkdown.ts');
  });

  it('inline code naming a workspace path (with or without lines) becomes a link carrying the path', () => {
    const html = md.renderMarkdown('See `src/cart.ts:12-20`, `README.md` and `./lib/util.py:3`.');
    const paths = [...html.matchAll(/<a href="#" class="path-link" data-path="([^"]*)"/g)].map((m) => m[1]);
    assert.deepEqual(paths, ['src/cart.ts:12-20', 'README.md', './lib/util.py:3']);
  });

  it('code that is not a path stays plain code: method calls, versions, URLs, commands, markup', () => {
    const html = md.renderMarkdown('`console.log` `1.2.3` `https://x.io/a.ts` `npm test` `<b>x.ts</b>` `a"b.ts`');
    assert.doesNotMatch(html, /path-link/, html);
    assert.match(html, /<code>&lt;b&gt;x\.ts&lt;\/b&gt;<\/code>/);
  });
});
