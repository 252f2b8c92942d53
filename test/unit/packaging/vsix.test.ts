import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..', '..');
const VSCE = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

/** What `vsce package` would put in the VSIX, per .vscodeignore (the real tool, offline). */
function vsixFiles(): string[] {
  const out = execFileSync(process.execPath, [VSCE, 'ls', '--no-dependencies'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return out.split('\n').map((l) => l.trim()).filter(Boolean);
}

describe('the VSIX contents', function () {
  this.timeout(30_000);
  let files: string[] = [];
  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'extension.js'))) throw new Error('dist/ is missing: run `npm run build` first');
    files = vsixFiles();
  });

  it('holds only what runs: the manifest, README, LICENSE, the icon, the built bundles and the built-in eval suite', () => {
    // The built-in eval suite (data Tandem: Evaluate Models… runs, never code the extension loads) goes in
    // as one pack the production build writes (test/unit/eval/evalFromVsix.test.ts packages and runs it),
    // never as its hundreds of task files.
    const unexpected = files.filter((f) => !/^(package\.json|README\.md|LICENSE|media\/[\w.-]+\.svg|dist\/[\w.-]+\.(js|css|woff2|ttf)|dist\/tree-sitter\/tree-sitter(-[a-z]+)?\.wasm|dist\/builtin-eval\/suite\.json\.br)$/.test(f));
    assert.deepEqual(files.filter((f) => f.startsWith('eval-suite/')), [], 'no task folders');
    assert.match(readFileSync(join(ROOT, '.vscodeignore'), 'utf8'), /^!dist\/builtin-eval\/suite\.json\.br$/m, 'the pack is packaged');
    assert.deepStrictEqual(unexpected, [], `files that do not run in VS Code: ${unexpected.join(', ')}`);
    assert.ok(!files.includes('dist/cli.js'), 'the CLI bundle is not part of the extension');
  });

  it('holds everything the manifest points at (main, the webview bundle, the icons) and the files main loads on demand', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      main: string;
      contributes: { viewsContainers: { activitybar: { icon: string }[] }; views: Record<string, { icon?: string }[]> };
    };
    const norm = (p: string) => p.replace(/^\.\//, '');
    const needed = [
      norm(pkg.main),
      'dist/webview.js',
      // Loaded on first use beside dist/extension.js: the extension cannot talk to a model without it.
      'dist/openai-sdk.js',
      ...pkg.contributes.viewsContainers.activitybar.map((c) => norm(c.icon)),
      ...Object.values(pkg.contributes.views).flat().flatMap((v) => (v.icon ? [norm(v.icon)] : [])),
    ];
    for (const f of needed) assert.ok(files.includes(f), `${f} is needed at run time but not packaged`);
  });
});
