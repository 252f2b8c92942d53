// The lint stage of `npm test`: one check per layer rule (scripts/lint/layers.mjs, enforced with
// dependency-cruiser over src/ and webview-ui/), one for import cycles, one for loops between the
// folders of one core layer (scripts/lint/folderLoops.mjs), one for unresolvable imports, one for
// comments that point at documents outside the repository, and one for writes to the model's
// conversation outside its owner (scripts/lint/conversationWriters.mjs). Ends with the
// stage line `N passed, N failed`; each failed check lists its offending imports or comments.
// Usage: node scripts/lint.mjs [--root DIR]   (DIR: another tree to lint, e.g. a test's fixture)
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { cruise } from 'dependency-cruiser';
import { layerRules, filesOutsideCoreLayers } from './lint/layers.mjs';
import { outsideReferences } from './lint/commentRefs.mjs';
import { folderLoops } from './lint/folderLoops.mjs';
import { CONVERSATION_OWNER, conversationWriters } from './lint/conversationWriters.mjs';
import { ROOT } from './test-host-paths.mjs';

const { values } = parseArgs({ options: { root: { type: 'string' } } });
const root = values.root ? resolve(values.root) : ROOT;
process.chdir(root);
const rules = layerRules();
const result = await cruise(['src', 'webview-ui/src'], {
  ruleSet: { forbidden: rules },
  validate: true,
  tsPreCompilationDeps: true,
  doNotFollow: { path: '(^|/)node_modules/' },
  exclude: { path: '^(dist|out)/' },
  // conditionNames: packages that map subpaths through "exports" (the MCP SDK's client/*.js) resolve as Node resolves them.
  enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.json'], exportsFields: ['exports'], conditionNames: ['require', 'node', 'default'] },
});
const cruised = result.output;

const checks = rules.map((rule) => {
  const hits = cruised.summary.violations.filter((v) => v.rule.name === rule.name);
  return {
    name: rule.name,
    problems: hits.map((v) => (v.cycle ? `${v.from} → ${v.cycle.map((c) => c.name ?? c).join(' → ')}` : `${v.from} → ${v.to}`)),
  };
});
const coreFiles = cruised.modules.map((m) => m.source).filter((f) => f.startsWith('src/core/'));
checks.push({ name: 'every src/core file is in a core layer', problems: filesOutsideCoreLayers(coreFiles).map((f) => `${f} (in no layer of scripts/lint/layers.mjs CORE_LAYERS)`) });
checks.push({ name: 'no loop between the folders of one src/core layer', problems: folderLoops(cruised.modules) });
const comments = outsideReferences(root, ['src', 'webview-ui/src', 'webview-ui/build', 'test', 'bench', 'scripts', 'esbuild.mjs']);
checks.push({ name: `comments say why in place (${comments.files} files)`, problems: comments.problems });
const writers = conversationWriters(root);
checks.push({ name: `only ${CONVERSATION_OWNER} writes the model's conversation (${writers.files} files)`, problems: writers.problems });

let passed = 0;
for (const c of checks) {
  if (c.problems.length === 0) { passed++; console.log(`  ✓ ${c.name}`); continue; }
  console.log(`  ✗ ${c.name}`);
  for (const p of [...new Set(c.problems)]) console.log(`      ${p}`);
}
console.log(`(${cruised.summary.totalCruised} modules, ${cruised.summary.totalDependenciesCruised} imports checked)`);
console.log(`${passed} passed, ${checks.length - passed} failed`);
process.exitCode = passed === checks.length ? 0 : 1;
