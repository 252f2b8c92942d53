// `npm start`: build, make sure the test host is installed, then run code-server with Tandem loaded
// from source on sample-workspace/ (or the folder given) and print the URL to open. Rebuilds on
// change (reload the browser window to pick it up). Stays up until Ctrl-C, then stops everything.
//   npm start                      code-server on a free port
//   npm start -- --port 8080 DIR   a fixed port, another folder
//   npm start -- --desktop         a desktop `code` on PATH instead (Extension Development Host)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT, TEST_HOST_DIR } from './test-host-paths.mjs';

const argv = process.argv.slice(2);
const desktop = argv.includes('--desktop');
const portArg = argv.indexOf('--port');
const port = portArg >= 0 ? Number(argv[portArg + 1]) : process.env.PORT ? Number(process.env.PORT) : undefined;
const folderArg = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--port')[0];
const folder = resolve(folderArg ?? join(ROOT, 'sample-workspace'));
if (!existsSync(folder) || !statSync(folder).isDirectory()) {
  console.error(`start: ${folder} is not a folder`);
  process.exit(2);
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

console.log('[start] building Tandem…');
run(process.execPath, ['esbuild.mjs']);

if (desktop) {
  const which = spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' });
  const code = which.stdout.trim();
  if (which.status !== 0 || !code) {
    console.error('start: --desktop needs a desktop VS Code `code` on PATH; none found. Run `npm start` without it to use code-server in the browser.');
    process.exit(1);
  }
  console.log(`[start] opening ${folder} in ${code} with Tandem loaded from ${ROOT}`);
  const child = spawn(code, ['--new-window', `--extensionDevelopmentPath=${ROOT}`, folder], { stdio: 'inherit' });
  child.on('exit', (c) => process.exit(c ?? 0));
} else {
  const { setupTestHost } = await import('./setup-test-host.mjs');
  try {
    setupTestHost('start');
  } catch (e) {
    console.error(`[start] ${e.message}`);
    process.exit(1);
  }
  const { startCodeServer, devPayload } = await import('./code-server.mjs');
  // The profile (settings, keys stored by the browser session aside) survives restarts; it lives in
  // the ignored .vscode-test/ folder next to the test host (TANDEM_START_PROFILE moves it, for tests).
  const profileDir = process.env.TANDEM_START_PROFILE || join(TEST_HOST_DIR, 'start-profile');
  const server = await startCodeServer({ port, profileDir });
  // Rebuild on change while the server runs; killed with us.
  const watcher = spawn(process.execPath, ['esbuild.mjs', '--watch'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  process.on('exit', () => { try { watcher.kill(); } catch { /* gone */ } });
  const url = server.workbenchUrl(folder, devPayload(server, { extensionDevelopmentPath: ROOT }));
  console.log(`
Tandem is running in VS Code (code-server ${server.baseUrl}).
Open this URL in a browser (Tandem is the bicycle in the activity bar):

  ${url}

Sources rebuild on save; reload the browser window to load them. Ctrl-C stops the server.
`);
  const code = await server.exited;
  console.error(`[start] code-server exited (${code})`);
  process.exit(1);
}
