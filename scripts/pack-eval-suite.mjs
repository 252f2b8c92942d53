// The built-in eval suite as the VSIX carries it: every file of eval-suite/ in one JSON document,
// compressed with Brotli at its largest window so a file repeated across tasks (each task keeps its
// project's whole snapshot, twice) is stored about once: 1.4 MB of files, about 60 KB packed, where
// the VSIX's own zip (one deflate per file) took 475 KB. Unpacked on first use by
// src/host/node/eval/builtinSuite.ts (format tandem-eval-suite-pack/1). Run by esbuild.mjs --production.
// Usage: node scripts/pack-eval-suite.mjs OUT_FILE
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { ROOT } from './test-host-paths.mjs';

export const PACK_FORMAT = 'tandem-eval-suite-pack/1';

/** Writes the pack of `suite` to `out`; throws on anything it could not restore byte for byte. */
export function packEvalSuite(out, suite = join(ROOT, 'eval-suite')) {
  const files = [];
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const abs = join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else if (e.isFile()) {
        const bytes = readFileSync(abs);
        const text = bytes.toString('utf8');
        if (!Buffer.from(text, 'utf8').equals(bytes)) throw new Error(`${abs} is not UTF-8 text: the pack holds text only`);
        files.push([relative(suite, abs).split('\\').join('/'), text]);
      } else throw new Error(`${abs} is neither a file nor a folder: the pack holds files only`);
    }
  };
  walk(suite);
  const json = Buffer.from(JSON.stringify({ format: PACK_FORMAT, files }));
  const packed = brotliCompressSync(json, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
  });
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, packed);
  return { files: files.length, bytes: json.length, packed: packed.length };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = process.argv[2];
  if (!out) {
    console.error('usage: node scripts/pack-eval-suite.mjs OUT_FILE');
    process.exit(2);
  }
  const r = packEvalSuite(resolve(out));
  console.log(`${out}: ${r.files} files, ${(r.bytes / 1024).toFixed(0)} KB → ${(r.packed / 1024).toFixed(1)} KB`);
}
