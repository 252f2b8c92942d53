// esbuild plugin for the webview bundle only: `import { z } from 'zod'` (used by src/protocol) is
// served by webview-ui/src/lib/zodOnMini.ts, which builds the very same schemas on zod/mini.
// Why: classic zod cannot be tree-shaken (its `z` namespace drags every check and all locales in):
// ~94 KB gzipped, or ~30 KB with named imports, against a 60 KB budget for the whole webview.
// zod/mini runs the same parser core in ~9 KB. test/unit/webview/zodOnMini.test.ts checks that the
// protocol accepts and rejects the same payloads through either build.
import { fileURLToPath } from 'node:url';

const shimPath = fileURLToPath(new URL('../src/lib/zodOnMini.ts', import.meta.url));

export const leanZodPlugin = {
  name: 'tandem-lean-zod',
  setup(build) {
    build.onResolve({ filter: /^zod$/ }, () => ({ path: shimPath }));
  },
};
