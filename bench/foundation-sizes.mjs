// Sizes against the budgets, on a production build staged apart from dist/: the webview's JS+CSS
// gzipped, dist/extension.js (minified; the lazily loaded files beside it apart) and the VSIX.
// Prints, asserts nothing (the budgets stage of `npm test`, bench/budgets.mjs, fails when over).
// Usage: node bench/foundation-sizes.mjs [--smoke]   (the same in smoke mode: it is deterministic)
import { BUDGETS, line } from './foundation/budget.mjs';
import { productionSizes } from './support/sizes.mjs';

let s;
try {
  s = productionSizes();
} catch (e) {
  console.error(`foundation-sizes: the production build / package failed: ${e.message}`);
  process.exit(1);
}
const kb = (n) => n / 1024;
console.log('Foundation sizes (production build)');
console.log(line('webview JS+CSS gzipped', kb(s.webviewJsGz + s.webviewCssGz), 'KB', BUDGETS.webviewGzKB));
console.log(`    (webview.js ${kb(s.webviewJsGz).toFixed(1)} KB gz, webview.css ${kb(s.webviewCssGz).toFixed(1)} KB gz)`);
console.log(line('dist/extension.js', kb(s.extension), 'KB', BUDGETS.extensionKB, 0));
console.log(`    (${kb(s.extensionGz).toFixed(0)} KB gzipped; loaded on demand: ${Object.entries(s.lazy).map(([f, n]) => `${f} ${kb(n).toFixed(0)} KB`).join(', ')})`);
console.log(line('VSIX', s.vsix / 1024 / 1024, 'MB', BUDGETS.vsixMB, 2));
