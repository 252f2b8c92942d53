// Starts a fresh, isolated code-server (VS Code 1.139 server + Node extension host) and guarantees it
// goes away: every run gets its own temp folder for user data, extensions, HOME, TMPDIR and XDG_*,
// so nothing is left in /tmp or ~; the server runs detached in its own process group and the whole
// group is killed (file watchers and extension hosts included) on stop, exit or signal.
// A server is never reused: a long-lived one keeps old extension hosts alive.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CODE_SERVER_ENTRY, NODE_BIN, NODE_HOME } from './test-host-paths.mjs';

/** User settings for a quiet, deterministic workbench. */
export const DEFAULT_USER_SETTINGS = {
  // Hides the built-in Chat view and its AI entry points, which would otherwise compete with ours.
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'git.openRepositoryInParentFolders': 'never',
  'window.restoreWindows': 'none',
  // The secondary side bar hosts the (disabled) built-in chat: an empty panel otherwise.
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
};

const live = new Set();
let hooksInstalled = false;

function installExitHooks() {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', () => { for (const s of [...live]) s.stopSync(); });
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      for (const s of [...live]) s.stopSync();
      // Re-raise the conventional exit status for a signal once our cleanup is done.
      process.exit(128 + ({ SIGINT: 2, SIGTERM: 15, SIGHUP: 1 })[sig]);
    });
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitHealthy(baseUrl, child, output, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}) before it was healthy:\n${output.join('')}`);
    }
    try {
      const res = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`code-server did not answer ${baseUrl}/healthz within ${timeoutMs} ms:\n${output.join('')}`);
}

/**
 * @param {object} [opts]
 * @param {Record<string, unknown>} [opts.settings] extra user settings
 * @param {string[]} [opts.args] extra code-server arguments (e.g. a folder to open)
 * @param {Record<string, string>} [opts.env] extra environment for the server and its extension hosts
 * @param {boolean} [opts.echo] mirror the server's output to our stderr (else kept for error reports)
 * @param {number} [opts.port]
 * @param {string[]} [opts.installExtensions] VSIX files to install before the server starts
 * @param {string} [opts.profileDir] keep user data and extensions here across runs (`npm start`);
 *   by default they live in the run's temp folder and go with it
 * @returns {Promise<CodeServer>}
 */
export async function startCodeServer(opts = {}) {
  if (!existsSync(CODE_SERVER_ENTRY) || !existsSync(NODE_BIN)) {
    throw new Error('code-server is not installed: run `npm run setup-test-host`');
  }
  installExitHooks();
  const dir = mkdtempSync(join(tmpdir(), 'tandem-cs-'));
  const d = (name) => { const p = join(dir, name); mkdirSync(p, { recursive: true, mode: 0o700 }); return p; };
  const userDataDir = opts.profileDir ? join(opts.profileDir, 'user-data') : d('user-data');
  const extensionsDir = opts.profileDir ? join(opts.profileDir, 'extensions') : d('extensions');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  // A kept profile keeps the user's own settings; only a fresh one gets ours.
  if (!opts.profileDir || !existsSync(settingsFile)) {
    writeFileSync(settingsFile, JSON.stringify({ ...DEFAULT_USER_SETTINGS, ...opts.settings }, null, 2));
  }
  const env = {
    ...process.env,
    HOME: d('home'),
    TMPDIR: d('tmp'),
    XDG_RUNTIME_DIR: d('xdg-runtime'),
    XDG_CONFIG_HOME: d('xdg-config'),
    XDG_DATA_HOME: d('xdg-data'),
    XDG_CACHE_HOME: d('xdg-cache'),
    PATH: `${join(NODE_HOME, 'bin')}:${process.env.PATH ?? ''}`,
    ...opts.env,
  };
  // Our own Node options (e.g. a test runner's) must not leak into the server's Node 24.
  delete env.NODE_OPTIONS;
  delete env.VSCODE_IPC_HOOK_CLI;
  for (const vsix of opts.installExtensions ?? []) {
    // The same entry point installs into this run's extensions folder (~0.5 s per VSIX).
    const r = spawnSync(NODE_BIN, [CODE_SERVER_ENTRY, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'],
      { env, cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`code-server could not install ${vsix}:\n${r.stdout}${r.stderr}`);
    }
  }
  const port = opts.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const args = [
    CODE_SERVER_ENTRY,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    '--vscode-option', 'enable-smoke-test-driver',
    ...(opts.args ?? []),
  ];
  const child = spawn(NODE_BIN, args, { detached: true, env, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  const keep = (chunk) => {
    output.push(chunk.toString());
    if (output.length > 400) output.splice(0, output.length - 400);
    if (opts.echo) process.stderr.write(chunk);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);

  let stopped = false;
  const server = {
    port, baseUrl, dir, userDataDir, extensionsDir, pid: child.pid, output,
    /** Workbench URL opening `folder`, optionally with a web test/dev payload (see `testPayload`). */
    workbenchUrl(folder, payload) {
      const q = new URLSearchParams();
      if (folder) q.set('folder', folder);
      if (payload) q.set('payload', JSON.stringify(payload));
      return `${baseUrl}/?${q.toString()}`;
    },
    /** A `vscode-remote://` URI for an absolute path on this server (what the web payload wants). */
    remoteUri(absPath) { return `vscode-remote://127.0.0.1:${port}${absPath}`; },
    stopSync() {
      if (stopped) return;
      stopped = true;
      live.delete(server);
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
      try { rmSync(dir, { recursive: true, force: true, maxRetries: 3 }); } catch { /* best effort */ }
    },
    async stop() {
      if (stopped) return;
      try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
      const exited = child.exitCode !== null || child.signalCode !== null
        ? Promise.resolve()
        : new Promise((r) => child.once('exit', r));
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      // Whatever survived SIGTERM in the group (watchers, extension hosts) goes now.
      server.stopSync();
    },
    exited: new Promise((r) => child.once('exit', (code, sig) => r(code ?? sig))),
  };
  live.add(server);
  try {
    await waitHealthy(baseUrl, child, output, opts.timeoutMs ?? 60_000);
  } catch (e) {
    server.stopSync();
    throw e;
  }
  return server;
}

/** The payload the workbench reads from `?payload=` to load an extension from source (and run its tests). */
export function devPayload(server, { extensionDevelopmentPath, extensionTestsPath } = {}) {
  const p = [];
  if (extensionDevelopmentPath) p.push(['extensionDevelopmentPath', server.remoteUri(extensionDevelopmentPath)]);
  if (extensionTestsPath) p.push(['extensionTestsPath', server.remoteUri(extensionTestsPath)]);
  p.push(['skipWelcome', 'true'], ['skipReleaseNotes', 'true']);
  return p;
}
