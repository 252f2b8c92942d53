// Installs what the integration and UI tests (and `npm start`) need, and nothing when it is all there:
//   Debian: chromium (the browser Playwright drives), libkrb5-dev (code-server's native `kerberos`
//           build needs its headers), ripgrep (the `search` tool's fallback on PATH);
//   npm:    node@24 and code-server (VS Code 1.139) into the ignored `.vscode-test/` folder.
// code-server requires Node 24 and builds native modules, so it is installed with that Node first
// on PATH and `npm_config_nodedir` pointing at its headers (the machine's npmrc says nodedir=/usr,
// i.e. Node 20's headers, which would break the build).
// Exits non-zero with what is missing and how to install it when it cannot install it itself.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CODE_SERVER_HOME, CODE_SERVER_OK, CODE_SERVER_PREFIX, CODE_SERVER_VERSION,
  NODE_BIN, NODE_HOME, NODE_PREFIX, NODE_VERSION, TEST_HOST_DIR,
} from './test-host-paths.mjs';

const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'ripgrep'];
const quiet = process.argv.includes('--quiet');
const log = (msg) => { if (!quiet) console.log(`[setup-test-host] ${msg}`); };

class SetupError extends Error {}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.error) throw new SetupError(`could not run ${cmd}: ${r.error.message}`);
  return r.status ?? 1;
}

function aptInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

function ensureAptPackages() {
  const hasDpkg = spawnSync('dpkg-query', ['--version']).status === 0;
  if (!hasDpkg) {
    // Not Debian: only check that what we need is usable; we can't install it for you.
    const missing = [];
    if (!existsSync('/usr/bin/chromium')) missing.push('chromium at /usr/bin/chromium');
    if (spawnSync('rg', ['--version']).status !== 0) missing.push('ripgrep (rg on PATH)');
    if (missing.length) throw new SetupError(`missing: ${missing.join(', ')}; this machine has no dpkg/apt, install them with your package manager (and the Kerberos development headers for code-server's native build)`);
    return;
  }
  const missing = APT_PACKAGES.filter((p) => !aptInstalled(p));
  if (missing.length === 0) { log(`Debian packages present: ${APT_PACKAGES.join(', ')}`); return; }
  const how = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new SetupError(`missing Debian packages: ${missing.join(', ')}. Not running as root, so they cannot be installed here. Install them with:\n  sudo ${how}`);
  }
  log(`installing Debian packages: ${missing.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['update'], { env }) !== 0) throw new SetupError(`apt-get update failed; run it by hand:\n  ${how}`);
  if (run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env }) !== 0) {
    throw new SetupError(`apt-get install failed for ${missing.join(', ')}; run it by hand:\n  ${how}`);
  }
  const still = missing.filter((p) => !aptInstalled(p));
  if (still.length) throw new SetupError(`still missing after apt-get install: ${still.join(', ')}`);
}

function nodeVersionOk() {
  if (!existsSync(NODE_BIN)) return false;
  const r = spawnSync(NODE_BIN, ['-v'], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.trim() === `v${NODE_VERSION}`;
}

/** A tiny private package of our own per tool, so npm treats the install as project-scoped and
 * `allowScripts` approves exactly the install scripts these packages need (npm 11 warns about, and
 * may refuse, unreviewed ones). */
function writePrefixPackage(dir, allowScripts) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'tandem-test-host', private: true, allowScripts }, null, 2) + '\n');
}

function npmInstall(dir, spec, env) {
  const status = run('npm', ['install', '--save-exact', '--no-audit', '--no-fund', '--ignore-scripts=false', spec], { cwd: dir, env });
  if (status !== 0) {
    throw new SetupError(`npm install ${spec} failed (exit ${status}). Is the npm registry reachable (npm ping)? Delete ${dir} and run \`npm run setup-test-host\` again to retry.`);
  }
}

function ensureNode() {
  if (nodeVersionOk()) { log(`Node ${NODE_VERSION} present`); return; }
  log(`installing node@${NODE_VERSION} into ${NODE_PREFIX}`);
  rmSync(NODE_PREFIX, { recursive: true, force: true });
  writePrefixPackage(NODE_PREFIX, { node: true });
  npmInstall(NODE_PREFIX, `node@${NODE_VERSION}`, cleanNpmEnv());
  if (!nodeVersionOk()) throw new SetupError(`node@${NODE_VERSION} installed but ${NODE_BIN} does not run`);
}

/** Env for anything built or run against Node 24: its binary first on PATH, its headers for node-gyp. */
/**
 * The environment minus what an outer npm run exports. Under `npm test` / `npm start` the outer npm
 * (on Node 20) exports its settings as npm_* variables and the inner npm would take them as config,
 * e.g. npm_config_user_agent "… node/v20 …", which code-server's postinstall reads to refuse
 * anything but Node 24.
 */
function cleanNpmEnv(base = process.env) {
  const env = { ...base };
  for (const k of Object.keys(env)) {
    if (/^npm_/i.test(k) || k === 'NODE' || k === 'INIT_CWD') delete env[k];
  }
  delete env.NODE_OPTIONS;
  return env;
}

export function node24Env(base = process.env) {
  return { ...cleanNpmEnv(base), PATH: `${join(NODE_HOME, 'bin')}:${base.PATH ?? ''}`, npm_config_nodedir: NODE_HOME };
}

/** The native modules the server and the extension host load; each must load on Node 24. */
const NATIVE_MODULES = ['argon2', 'lib/vscode/node_modules/node-pty', 'lib/vscode/node_modules/@parcel/watcher',
  'lib/vscode/node_modules/kerberos', 'lib/vscode/node_modules/@vscode/spdlog', 'lib/vscode/node_modules/@vscode/native-watchdog',
  'lib/vscode/node_modules/@vscode/sqlite3'];

function verifyCodeServer() {
  const wanted = NATIVE_MODULES.map((m) => (m.startsWith('lib/') ? join(CODE_SERVER_HOME, m) : m));
  const script = `for (const m of ${JSON.stringify(wanted)}) { try { require(m); } catch (e) { console.error(m + ': ' + e.message); process.exitCode = 1; } }`;
  const r = spawnSync(NODE_BIN, ['-e', script], { cwd: CODE_SERVER_HOME, encoding: 'utf8', env: node24Env() });
  if (r.status !== 0) throw new SetupError(`code-server's native modules do not load on Node ${NODE_VERSION}:\n${r.stderr}`);
}

function installedCodeServerVersion() {
  const pj = join(CODE_SERVER_HOME, 'package.json');
  return existsSync(pj) ? JSON.parse(readFileSync(pj, 'utf8')).version : undefined;
}

function codeServerOk() {
  if (installedCodeServerVersion() !== CODE_SERVER_VERSION) return false;
  if (existsSync(CODE_SERVER_OK) && readFileSync(CODE_SERVER_OK, 'utf8').trim() === CODE_SERVER_VERSION) return true;
  // Installed but never verified (e.g. an interrupted run): verify before paying for a reinstall.
  try { verifyCodeServer(); } catch { return false; }
  writeFileSync(CODE_SERVER_OK, CODE_SERVER_VERSION + '\n');
  return true;
}

function ensureCodeServer() {
  if (codeServerOk()) { log(`code-server ${CODE_SERVER_VERSION} present`); return; }
  log(`installing code-server@${CODE_SERVER_VERSION} into ${CODE_SERVER_PREFIX} (a cold install takes about two minutes)`);
  rmSync(CODE_SERVER_PREFIX, { recursive: true, force: true });
  writePrefixPackage(CODE_SERVER_PREFIX, { 'code-server': true, argon2: true });
  npmInstall(CODE_SERVER_PREFIX, `code-server@${CODE_SERVER_VERSION}`, node24Env());
  verifyCodeServer();
  writeFileSync(CODE_SERVER_OK, CODE_SERVER_VERSION + '\n');
}

export function setupTestHost() {
  mkdirSync(TEST_HOST_DIR, { recursive: true });
  ensureAptPackages();
  ensureNode();
  ensureCodeServer();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const t0 = Date.now();
    setupTestHost();
    log(`test host ready (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    console.error(`[setup-test-host] ${e instanceof SetupError ? e.message : e.stack}`);
    process.exit(1);
  }
}
