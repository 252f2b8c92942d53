// The layer map: which folder may import which. The README's Layout section shows the same table;
// scripts/lint.mjs turns it into dependency-cruiser rules. Anything not listed under `mayImport`
// is forbidden, type-only imports included (a type from src/host in src/core is still a leak).
// npm packages are allowed everywhere; `vscode` and Node's built-in modules only where it says.

/** @typedef {{ name: string, path: string, mayImport: string[], vscode?: boolean, nodeBuiltins?: boolean }} Layer */

/** @type {Layer[]} */
export const LAYERS = [
  // Shared by host, webview and CLI: zod schemas and pure helpers. Bundled into the webview, so no Node.
  { name: 'src/protocol', path: '^src/protocol/', mayImport: ['src/protocol'] },
  // The agent: runs in the extension host, the CLI and plain-Node tests alike.
  { name: 'src/core', path: '^src/core/', mayImport: ['src/core', 'src/protocol'], nodeBuiltins: true },
  { name: 'src/host/node', path: '^src/host/node/', mayImport: ['src/host/node', 'src/core', 'src/protocol'], nodeBuiltins: true },
  { name: 'src/host/vscode', path: '^src/host/vscode/', mayImport: ['src/host/vscode', 'src/host/node', 'src/core', 'src/protocol'], vscode: true, nodeBuiltins: true },
  // The chat view knows the protocol and the core's ports, never the agent session behind it.
  { name: 'src/panel', path: '^src/panel/', mayImport: ['src/panel', 'src/core', 'src/protocol'], vscode: true, nodeBuiltins: true },
  // The CLI and its entry file (src/cli.ts): the Node host, never the VS Code one.
  { name: 'src/cli', path: '^src/cli(/|\\.ts$)', mayImport: ['src/cli', 'src/host/node', 'src/core', 'src/protocol'], nodeBuiltins: true },
  { name: 'src/extension.ts', path: '^src/extension\\.ts$', mayImport: ['src/host/vscode', 'src/host/node', 'src/panel', 'src/core', 'src/protocol'], vscode: true, nodeBuiltins: true },
  // Runs in the webview (a browser): only the shared protocol; whatever logic it shares with the
  // host lives in src/protocol, which keeps it pure.
  { name: 'webview-ui', path: '^webview-ui/', mayImport: ['webview-ui', 'src/protocol'] },
];

/**
 * Inside src/core, bottom → top: a file may import its own layer and the layers below it, never one
 * above (the same one-direction rule as the table above, one floor down). Every core file sits in a
 * folder named here; a new folder must be given a layer before the lint passes. Ports and the LLM
 * client know nothing of tools; tools, context and knowledge nothing of plans; plans nothing of the
 * turn loop; the turn nothing of the plan runs that drive it step by step; those nothing of the task
 * around them; the task nothing of the runtime that hosts it.
 */
export const CORE_LAYERS = [
  { name: 'ports and llm', folders: ['ports', 'llm', 'workspace', 'secrets', 'text', 'events', 'cost', 'schemas', 'storage'] },
  { name: 'roles', folders: ['roles'] },
  { name: 'tools, context and knowledge', folders: ['tools', 'policy', 'context', 'knowledge', 'syntax', 'mentions', 'mcp', 'checkpoints', 'settings', 'registries', 'userHooks', 'facts'] },
  { name: 'plans and review', folders: ['plans', 'review', 'history'] },
  { name: 'turn', folders: ['turn'] },
  { name: 'plan runs', folders: ['planRuns'] },
  { name: 'task', folders: ['task'] },
  { name: 'runtime', folders: ['runtime'] },
  { name: 'eval', folders: ['eval'] },
];

const coreFolders = (folders) => `^src/core/(${folders.join('|')})/`;

/** dependency-cruiser rules: each core layer imports no layer above it. */
export function coreLayerRules(layers = CORE_LAYERS) {
  return layers.slice(0, -1).map((l, i) => {
    const above = layers.slice(i + 1);
    return {
      name: `src/core: ${l.name} imports no layer above it (${above.map((a) => a.name).join('; ')})`,
      severity: 'error',
      from: { path: coreFolders(l.folders) },
      to: { path: coreFolders(above.flatMap((a) => a.folders)) },
    };
  });
}

/** Core files (repository-relative, `/`-separated) that no core layer names: loose files and new folders. */
export function filesOutsideCoreLayers(files, layers = CORE_LAYERS) {
  const inLayer = new RegExp(coreFolders(layers.flatMap((l) => l.folders)));
  return files.filter((f) => f.startsWith('src/core/') && !inLayer.test(f));
}

const VSCODE = '(^|/)node_modules/@types/vscode/|^vscode$';

/** dependency-cruiser `forbidden` rules for the table, plus no cycles and no unresolvable imports. */
export function layerRules(layers = LAYERS) {
  const byName = new Map(layers.map((l) => [l.name, l]));
  const rules = [];
  for (const l of layers) {
    const allowed = l.mayImport.map((n) => {
      const target = byName.get(n);
      if (!target) throw new Error(`layers.mjs: ${l.name} may import unknown layer ${n}`);
      return target.path;
    });
    rules.push({
      name: `${l.name} imports only ${l.mayImport.join(', ')}`,
      severity: 'error',
      from: { path: l.path },
      to: { pathNot: [...allowed, '(^|/)node_modules/'], dependencyTypesNot: ['core'] },
    });
    if (!l.vscode) rules.push({ name: `${l.name} never imports vscode`, severity: 'error', from: { path: l.path }, to: { path: VSCODE } });
    if (!l.nodeBuiltins) rules.push({ name: `${l.name} never imports Node built-ins (it runs in a browser)`, severity: 'error', from: { path: l.path }, to: { dependencyTypes: ['core'] } });
  }
  rules.push(...coreLayerRules());
  rules.push({ name: 'no import cycles', severity: 'error', from: { path: '^(src|webview-ui)/' }, to: { circular: true } });
  rules.push({ name: 'every import resolves', severity: 'error', from: { path: '^(src|webview-ui)/' }, to: { couldNotResolve: true } });
  return rules;
}
