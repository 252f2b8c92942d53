// Builds llama.cpp's own `llama-server` for the llama-server test stage, and does nothing when it is
// already built. The source is the git bundle the npm package `node-llama-cpp` ships under `llama/`
// (fetched with `npm pack`, so only the npm registry is needed); only the `llama-server` target is
// built, with cmake under `nice`, on two jobs, with the prebuilt web UI download and CURL off, into
// the ignored `.cache/llama-server-<version>/` folder (or $TANDEM_LLAMA_SERVER_DIR). About 10+ minutes on two cores.
// Debian's `cmake` and `build-essential` are installed when missing (as root).
// Ends with `1 passed, 0 failed` (the binary is there and runs) or `0 passed, 1 failed` and what is
// missing; exits non-zero when it cannot build.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LLAMA_SERVER_BIN, LLAMA_SERVER_DIR, LLAMA_SERVER_OK, LLAMA_SERVER_TEMPLATES, NODE_LLAMA_CPP_VERSION, TEST_TEMPLATE } from './llama-server-paths.mjs';

const APT_PACKAGES = ['cmake', 'build-essential', 'git'];
const quiet = process.argv.includes('--quiet');
const log = (msg) => { if (!quiet) console.error(`[setup-llama-server] ${msg}`); };

class SetupError extends Error {}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'], ...opts });
  if (r.error) throw new SetupError(`could not run ${cmd}: ${r.error.message}`);
  return r.status ?? 1;
}

function aptInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

function haveTool(cmd) {
  return spawnSync(cmd, ['--version'], { stdio: 'ignore' }).status === 0;
}

function ensureBuildTools() {
  if (haveTool('cmake') && haveTool('c++') && haveTool('make') && haveTool('git')) return;
  const hasDpkg = spawnSync('dpkg-query', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!hasDpkg) throw new SetupError('cmake, a C++ compiler, make and git are needed to build llama-server; install them with your package manager');
  const missing = APT_PACKAGES.filter((p) => !aptInstalled(p));
  const how = `apt-get update && apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new SetupError(`missing Debian packages: ${missing.join(', ')}; not root, so install them with:\n  sudo ${how}`);
  }
  log(`installing Debian packages: ${missing.join(', ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (run('apt-get', ['update'], { env }) !== 0 || run('apt-get', ['install', '-y', '--no-install-recommends', ...missing], { env }) !== 0) {
    throw new SetupError(`apt-get failed; run it by hand:\n  ${how}`);
  }
}

/** The llama.cpp source, cloned from the bundle inside the pinned node-llama-cpp package. */
function ensureSource(work) {
  const src = join(work, 'src');
  if (existsSync(join(src, 'CMakeLists.txt'))) return src;
  mkdirSync(work, { recursive: true });
  log(`fetching node-llama-cpp@${NODE_LLAMA_CPP_VERSION} (it carries llama.cpp's source as a git bundle)`);
  if (run('npm', ['pack', '--silent', `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] }) !== 0) {
    throw new SetupError(`npm pack node-llama-cpp@${NODE_LLAMA_CPP_VERSION} failed: is the npm registry reachable (npm ping)?`);
  }
  const tgz = readdirSync(work).find((f) => f.startsWith('node-llama-cpp-') && f.endsWith('.tgz'));
  if (!tgz) throw new SetupError('npm pack produced no tarball');
  if (run('tar', ['xzf', tgz, 'package/llama/gitRelease.bundle'], { cwd: work }) !== 0) throw new SetupError('could not unpack the llama.cpp bundle from the tarball');
  rmSync(src, { recursive: true, force: true });
  if (run('git', ['-c', 'advice.detachedHead=false', 'clone', '--quiet', join(work, 'package', 'llama', 'gitRelease.bundle'), src], { cwd: work }) !== 0) {
    throw new SetupError('git clone of the llama.cpp bundle failed');
  }
  rmSync(join(work, tgz), { force: true });
  rmSync(join(work, 'package'), { recursive: true, force: true });
  return src;
}

function build(src, work) {
  const buildDir = join(work, 'build');
  const configure = [
    '-S', src, '-B', buildDir,
    '-DCMAKE_BUILD_TYPE=Release',
    '-DBUILD_SHARED_LIBS=OFF',
    '-DLLAMA_BUILD_TESTS=OFF', '-DLLAMA_BUILD_EXAMPLES=OFF', '-DLLAMA_BUILD_SERVER=ON', '-DLLAMA_BUILD_TOOLS=ON',
    '-DLLAMA_BUILD_UI=OFF', '-DLLAMA_USE_PREBUILT_UI=OFF',
    '-DLLAMA_CURL=OFF', '-DLLAMA_OPENSSL=OFF',
  ];
  log('configuring (cmake)');
  if (run('nice', ['-n', '10', 'cmake', ...configure]) !== 0) throw new SetupError('cmake configure failed (see above)');
  log('building the llama-server target with -j2 (about 10+ minutes on two cores)');
  if (run('nice', ['-n', '10', 'cmake', '--build', buildDir, '--target', 'llama-server', '-j', '2']) !== 0) {
    throw new SetupError('cmake build of llama-server failed (see above)');
  }
  const built = join(buildDir, 'bin', 'llama-server');
  if (!existsSync(built)) throw new SetupError(`the build finished but ${built} is missing`);
  return built;
}

function verify(bin) {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? (r.stdout + r.stderr).trim().split('\n').pop() : null;
}

/** Chat templates ship in the source (models/templates); the tests put one into their model. */
function copyTemplates(src) {
  rmSync(LLAMA_SERVER_TEMPLATES, { recursive: true, force: true });
  cpSync(join(src, 'models', 'templates'), LLAMA_SERVER_TEMPLATES, { recursive: true });
  if (!existsSync(join(LLAMA_SERVER_TEMPLATES, TEST_TEMPLATE))) throw new SetupError(`the llama.cpp source has no models/templates/${TEST_TEMPLATE}`);
}

try {
  const work = join(LLAMA_SERVER_DIR, 'work');
  if (existsSync(LLAMA_SERVER_OK) && existsSync(LLAMA_SERVER_BIN)) {
    log(`llama-server present: ${LLAMA_SERVER_BIN}`);
    if (!existsSync(join(LLAMA_SERVER_TEMPLATES, TEST_TEMPLATE))) {
      log('the chat templates are missing: fetching the source for them (no rebuild)');
      copyTemplates(ensureSource(work));
      rmSync(work, { recursive: true, force: true });
    }
  } else {
    ensureBuildTools();
    const src = ensureSource(work);
    const built = build(src, work);
    mkdirSync(join(LLAMA_SERVER_DIR, 'bin'), { recursive: true });
    if (run('cp', [built, LLAMA_SERVER_BIN]) !== 0) throw new SetupError(`could not copy ${built}`);
    copyTemplates(src);
    const version = verify(LLAMA_SERVER_BIN);
    if (!version) throw new SetupError(`${LLAMA_SERVER_BIN} does not run`);
    writeFileSync(LLAMA_SERVER_OK, `${version}\n`);
    // The build tree is large; only the binary and the templates are kept.
    rmSync(work, { recursive: true, force: true });
    log(`built ${LLAMA_SERVER_BIN} (${version})`);
  }
  console.log('1 passed, 0 failed');
} catch (e) {
  console.error(`[setup-llama-server] ${e instanceof SetupError ? e.message : e?.stack ?? e}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
