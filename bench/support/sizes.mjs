// The deterministic sizes of a production build, staged apart from dist/ (scripts/package.mjs):
// the webview's JS+CSS gzipped, dist/extension.js and the files loaded lazily beside it, the VSIX.
// Used by bench/foundation-sizes.mjs and the budgets stage (bench/budgets.mjs).
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { packageStage, stageProductionBuild } from '../../scripts/package.mjs';

/** Sizes in bytes; throws when the build or the packaging fails. */
export function productionSizes() {
  const stage = mkdtempSync(join(tmpdir(), 'tandem-sizes-'));
  try {
    stageProductionBuild(stage, { quiet: true });
    const vsix = join(stage, 'tandem.vsix');
    packageStage(stage, vsix, { quiet: true });
    const dist = (f) => join(stage, 'dist', f);
    const gz = (f) => gzipSync(readFileSync(dist(f)), { level: 9 }).length;
    // Every other script beside extension.js is loaded on demand (tokenizer, parser, YAML, MCP SDK).
    const lazy = Object.fromEntries(readdirSync(join(stage, 'dist')).filter((f) => f.endsWith('.js') && !['extension.js', 'cli.js', 'webview.js'].includes(f)).map((f) => [f, statSync(dist(f)).size]));
    return {
      webviewJsGz: gz('webview.js'),
      webviewCssGz: gz('webview.css'),
      extension: statSync(dist('extension.js')).size,
      extensionGz: gz('extension.js'),
      lazy,
      vsix: statSync(vsix).size,
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
