/**
 * Where the built-in eval suite is on this machine. A checkout of Tandem has it as a folder
 * (`eval-suite/`, found walking up from the code); an installed extension carries it as one
 * compressed file instead (`dist/builtin-eval/suite.json.br`, written by scripts/pack-eval-suite.mjs):
 * 363 small files, a third of them the same file in several tasks, cost 475 KB in the VSIX as
 * files and 60 KB as one Brotli stream with a window that spans them all. On first use it is
 * unpacked into a folder of the caller's (the extension's global storage, the CLI's data folder)
 * named after the archive's hash; every later use checks that folder file by file against the
 * archive and unpacks it afresh when anything differs (a file edited, deleted, or an unpack cut off).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

export const SUITE_FOLDER = 'eval-suite';
/** The packed suite, relative to the folder the bundle runs from (dist/). */
export const PACKED_SUITE = path.join('builtin-eval', 'suite.json.br');
export const PACK_FORMAT = 'tandem-eval-suite-pack/1';

interface Pack {
  format: typeof PACK_FORMAT;
  /** [path relative to the suite, with "/", UTF-8 content] */
  files: [string, string][];
}

/** The suite folder of a checkout of Tandem at or above `codeDir`, if there is one. */
function checkoutSuite(codeDir: string): string | undefined {
  for (let dir = path.resolve(codeDir); ; dir = path.dirname(dir)) {
    const folder = path.join(dir, SUITE_FOLDER);
    if (fs.existsSync(path.join(folder, 'README.md'))) return folder;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The built-in suite: the folder of a checkout above `codeDir`, else the pack beside it (unpacked into `cacheDir`), else undefined. */
export function builtinSuite(codeDir: string, cacheDir: string): string | undefined {
  const packed = path.join(codeDir, PACKED_SUITE);
  return checkoutSuite(codeDir) ?? (fs.existsSync(packed) ? unpackSuite(packed, cacheDir) : undefined);
}

/** Whether a built-in suite is there to offer (without unpacking it). */
export function hasBuiltinSuite(codeDir: string): boolean {
  return checkoutSuite(codeDir) !== undefined || fs.existsSync(path.join(codeDir, PACKED_SUITE));
}

/** The pack's files, checked: a known format, and every path a plain relative one inside the suite. */
function readPack(file: string): { hash: string; files: [string, Buffer][] } {
  const bytes = fs.readFileSync(file);
  let pack: Pack;
  try {
    pack = JSON.parse(brotliDecompressSync(bytes).toString('utf8')) as Pack;
  } catch (e) {
    throw new Error(`the built-in eval suite (${file}) is damaged: ${(e as Error).message}; reinstall Tandem`);
  }
  if (pack?.format !== PACK_FORMAT || !Array.isArray(pack.files)) throw new Error(`the built-in eval suite (${file}) is not a ${PACK_FORMAT} pack; reinstall Tandem`);
  const files: [string, Buffer][] = [];
  for (const entry of pack.files) {
    const [rel, content] = Array.isArray(entry) ? entry : [];
    const parts = typeof rel === 'string' ? rel.split('/') : [];
    if (typeof content !== 'string' || !parts.length || parts.some((p) => !p || p === '.' || p === '..' || p.includes('\\') || p.includes('\0')) || path.isAbsolute(rel!)) {
      throw new Error(`the built-in eval suite (${file}) holds a bad entry ${JSON.stringify(rel)}; reinstall Tandem`);
    }
    files.push([parts.join(path.sep), Buffer.from(content, 'utf8')]);
  }
  return { hash: createHash('sha256').update(bytes).digest('hex').slice(0, 16), files };
}

/** Whether `dir` holds exactly the pack's files (no symlinked folder, each file's bytes the same). */
function matches(dir: string, files: readonly [string, Buffer][]): boolean {
  try {
    if (!fs.lstatSync(dir).isDirectory()) return false;
    for (const [rel, content] of files) {
      const abs = path.join(dir, rel);
      if (!fs.lstatSync(abs).isFile() || !fs.readFileSync(abs).equals(content)) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** The unpacked suite in `cacheDir`, unpacked now unless an intact copy is already there. */
export function unpackSuite(packed: string, cacheDir: string): string {
  const { hash, files } = readPack(packed);
  const target = path.join(cacheDir, `${SUITE_FOLDER}-${hash}`);
  if (matches(target, files)) return target;
  // Written beside the target and renamed into place, so a cut-off unpack never looks complete
  // and two evals starting at once each end with the same whole folder.
  fs.mkdirSync(cacheDir, { recursive: true });
  const fresh = `${target}.unpacking-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    for (const [rel, content] of files) {
      fs.mkdirSync(path.dirname(path.join(fresh, rel)), { recursive: true });
      fs.writeFileSync(path.join(fresh, rel), content);
    }
    if (fs.existsSync(target) || isLink(target)) {
      if (matches(target, files)) return target; // another eval finished it meanwhile
      const stale = `${target}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
      fs.renameSync(target, stale);
      fs.rmSync(stale, { recursive: true, force: true });
    }
    fs.renameSync(fresh, target);
    removeOlderSuites(cacheDir, target);
  } catch (e) {
    if (!matches(target, files)) throw new Error(`could not unpack the built-in eval suite into ${target}: ${(e as Error).message}`);
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
  return target;
}

/**
 * A new pack (Tandem was updated) leaves the suite of the one before behind, 1.4 MB a time: removed
 * once the new one is in place. Only folders named like a suite of this cache, never anything else.
 */
function removeOlderSuites(cacheDir: string, current: string): void {
  for (const name of fs.readdirSync(cacheDir)) {
    const abs = path.join(cacheDir, name);
    if (abs !== current && new RegExp(`^${SUITE_FOLDER}-[0-9a-f]{16}$`).test(name)) fs.rmSync(abs, { recursive: true, force: true });
  }
}

function isLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}
