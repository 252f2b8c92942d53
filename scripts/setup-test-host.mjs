// Installs what the tests (and `npm start`) need, for one stage or all of them, and nothing when it
// is all there. Two lists, each entry saying which stages need it:
//   APT_PACKAGES   Debian packages (apt-get; needs root, otherwise the exact line to run is printed);
//   PREREQUISITES  what gets installed: the Debian packages, then node@24 and code-server (VS Code
//                  1.139) from npm into the ignored `.vscode-test/` folder.
// `npm test` runs `--for unit` before the unit stage (system packages only: Chromium, ripgrep) and
// `--for integration` before the integration stage (adds Node 24 and code-server).
// code-server requires Node 24 and builds native modules, so it is installed with that Node first
// on PATH and `npm_config_nodedir` pointing at its headers (the machine's npmrc says nodedir=/usr,
// i.e. Node 20's headers, which would break the build).
// A prerequisite that is missing and cannot be installed fails loudly with what to run; nothing
// is ever skipped for lack of it. TANDEM_SETUP=check reports what is missing without installing.
// Usage: node scripts/setup-test-host.mjs [--for unit|integration|ui|start|all] [--quiet]
// Ends with `N passed, N failed` (one check per prerequisite).
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  CHROMIUM, CODE_SERVER_HOME, CODE_SERVER_OK, CODE_SERVER_PREFIX, CODE_SERVER_VERSION,
  NODE_BIN, NODE_HOME, NODE_PREFIX, NODE_VERSION, TEST_HOST_DIR,
} from './test-host-paths.mjs';

export const STAGES = ['unit', 'integration', 'ui', 'start'];
const ALL = STAGES;
const HOST = ['integration', 'ui', 'start'];

/**
 * Debian packages: `bin` is what the tests run (an absolute path, or a name looked up on PATH), so
 * a package that is installed but unreachable counts as missing too.
 */
export const APT_PACKAGES = [
  { pkg: 'chromium', bin: CHROMIUM, for: ALL, why: 'the browser the UI tests and the webview security tests drive' },
  { pkg: 'ripgrep', bin: 'rg', for: ALL, why: "the search tool's fast path, tested in the unit stage" },
  { pkg: 'libkrb5-dev', for: HOST, why: "headers for code-server's native kerberos build" },
  { pkg: 'bubblewrap', bin: 'bwrap', for: ALL, why: 'the sandbox run_command runs in on Linux; its tests try every escape for real' },
  // Essential on Debian, listed for the systems where they are not: a copy-on-write step's namespace is made, entered and its overlay mounted with them.
  { pkg: 'util-linux', bin: 'nsenter', for: ALL, why: "unshare and nsenter: a copy-on-write step workspace's user+mount namespace (setpriv: its tests as an ordinary user)" },
  { pkg: 'mount', bin: 'mount', for: ALL, why: "mounts a copy-on-write step workspace's overlay inside its own namespace" },
];

const quiet = process.argv.includes('--quiet');
const log = (msg) => { if (!quiet) console.log(`[setup-test-host] ${msg}`); };
const installAllowed = () => process.env.TANDEM_SETUP !== 'check';

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

function onPath(name, envPath = process.env.PATH ?? '') {
  for (const dir of envPath.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      if (statSync(join(dir, name)).isFile()) return true;
    } catch { /* not in this folder */ }
  }
  return false;
}

function reachable(bin) {
  return isAbsolute(bin) ? existsSync(bin) : onPath(bin);
}

/** Why a package counts as missing, or undefined when it is there. */
function aptMissing({ pkg, bin }, hasDpkg) {
  if (hasDpkg && !aptInstalled(pkg)) return 'not installed';
  if (bin && !reachable(bin)) return isAbsolute(bin) ? `${bin} not found` : `\`${bin}\` is not on PATH (PATH=${process.env.PATH ?? ''})`;
  return undefined;
}

function ensureAptPackages(stage) {
  const wanted = APT_PACKAGES.filter((p) => stage === 'all' || p.for.includes(stage));
  if (wanted.length === 0) return;
  const hasDpkg = spawnSync('dpkg-query', ['--version']).status === 0;
  if (!hasDpkg && wanted.some((p) => !p.bin)) {
    // Not Debian: we can only check what is reachable; headers-only packages can't be checked.
    log(`no dpkg: cannot check ${wanted.filter((p) => !p.bin).map((p) => p.pkg).join(', ')}; install their equivalents with your package manager`);
  }
  const missingNow = () => wanted.map((p) => ({ p, why: aptMissing(p, hasDpkg) })).filter((m) => m.why);
  const missing = missingNow();
  if (missing.length === 0) { log(`Debian packages present: ${wanted.map((p) => p.pkg).join(', ')}`); return; }
  const list = missing.map((m) => `${m.p.pkg} (${m.why}; needed for ${m.p.why})`).join('\n  ');
  const how = `apt-get update && apt-get install -y --no-install-recommends ${missing.map((m) => m.p.pkg).join(' ')}`;
  if (!hasDpkg) throw new SetupError(`missing:\n  ${list}\nThis machine has no dpkg/apt: install them with your package manager.`);
  if (!installAllowed()) throw new SetupError(`missing:\n  ${list}\nTANDEM_SETUP=check, so nothing was installed. Install them with:\n  ${how}`);
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new SetupError(`missing:\n  ${list}\nNot running as root, so they cannot be installed here. Install them with:\n  sudo ${how}`);
  }
  log(`installing Debian packages: ${missing.map((m) => m.p.pkg).join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['update'], { env }) !== 0) throw new SetupError(`apt-get update failed; run it by hand:\n  ${how}`);
  if (run('apt-get', ['install', '-y', '--no-install-recommends', ...missing.map((m) => m.p.pkg)], { env }) !== 0) {
    throw new SetupError(`apt-get install failed for ${missing.map((m) => m.p.pkg).join(', ')}; run it by hand:\n  ${how}`);
  }
  const still = missingNow();
  if (still.length) throw new SetupError(`still missing after apt-get install:\n  ${still.map((m) => `${m.p.pkg} (${m.why})`).join('\n  ')}`);
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

function installNode() {
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

function installCodeServer() {
  log(`installing code-server@${CODE_SERVER_VERSION} into ${CODE_SERVER_PREFIX} (a cold install takes about two minutes)`);
  rmSync(CODE_SERVER_PREFIX, { recursive: true, force: true });
  writePrefixPackage(CODE_SERVER_PREFIX, { 'code-server': true, argon2: true });
  npmInstall(CODE_SERVER_PREFIX, `code-server@${CODE_SERVER_VERSION}`, node24Env());
  verifyCodeServer();
  writeFileSync(CODE_SERVER_OK, CODE_SERVER_VERSION + '\n');
}

/**
 * What gets set up, in order; `for` names the stages that need it (see STAGES). An entry either
 * has `present()` + `install()`, or one `ensure(stage)` that does both (the Debian packages, which
 * depend on the stage).
 */
export const PREREQUISITES = [
  { name: 'Debian packages', for: ALL, ensure: (stage) => ensureAptPackages(stage) },
  { name: `Node ${NODE_VERSION}`, for: HOST, present: nodeVersionOk, install: installNode },
  { name: `code-server ${CODE_SERVER_VERSION}`, for: HOST, present: codeServerOk, install: installCodeServer },
];

function ensure(p, stage) {
  if (p.ensure) return p.ensure(stage);
  if (p.present()) { log(`${p.name} present`); return; }
  if (!installAllowed()) throw new SetupError(`missing; TANDEM_SETUP=check, so nothing was installed (run \`npm run setup-test-host\`)`);
  mkdirSync(TEST_HOST_DIR, { recursive: true });
  p.install();
}

/**
 * Everything the stage needs ('all': every stage), installed when missing. Returns one result per
 * prerequisite and throws nothing, so a caller can report every failure at once.
 */
export function setupFor(stage = 'all') {
  if (stage !== 'all' && !STAGES.includes(stage)) throw new Error(`unknown stage "${stage}" (expected ${STAGES.join(', ')} or all)`);
  const results = [];
  for (const p of PREREQUISITES.filter((q) => stage === 'all' || q.for.includes(stage))) {
    try {
      ensure(p, stage);
      results.push({ name: p.name, ok: true });
    } catch (e) {
      results.push({ name: p.name, ok: false, message: e instanceof SetupError ? e.message : e.stack });
    }
  }
  return results;
}

/** For the runners: sets up what `stage` needs and throws (with every problem) if anything is missing. */
export function setupTestHost(stage = 'all') {
  const failed = setupFor(stage).filter((r) => !r.ok);
  if (failed.length) throw new SetupError(failed.map((r) => `${r.name}: ${r.message}`).join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { for: { type: 'string', default: 'all' }, quiet: { type: 'boolean' } } });
  const t0 = Date.now();
  let results;
  try {
    results = setupFor(values.for);
  } catch (e) {
    console.error(`[setup-test-host] ${e.message}`);
    console.log('0 passed, 1 failed');
    process.exit(2);
  }
  for (const r of results) {
    if (r.ok) log(`✓ ${r.name}`);
    else console.error(`[setup-test-host] ✗ ${r.name}: ${r.message}`);
  }
  const failed = results.filter((r) => !r.ok).length;
  log(`${values.for === 'all' ? 'test host' : `what the ${values.for} stage needs`} ${failed ? 'is NOT ready' : 'is ready'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
