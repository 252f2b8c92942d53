/**
 * Whether two steps' declared files may name the same file. Two steps that may write the same file
 * never run at the same time: their changes would meet in the workspace, and the second apply-back
 * would be refused. Conservative on purpose: when in doubt (a glob without a folder, `**`
 * anywhere near the other), they overlap and run one after the other, which is only slower.
 */
import { fileInScope } from '../stepScope';

const GLOB_CHARS = /[*?[\]{}]/;

const clean = (f: string) => f.trim().replace(/\\/g, '/').replace(/^\.\//, '').replace(/\/+$/, '');

/** The folder part of an entry that cannot vary: `src/a/` for `src/a/**\/*.ts`, the whole entry when it is a plain path. */
function fixedPart(entry: string): { fixed: string; glob: boolean } {
  const at = entry.search(GLOB_CHARS);
  if (at === -1) return { fixed: entry, glob: false };
  return { fixed: entry.slice(0, entry.lastIndexOf('/', at) + 1), glob: true };
}

/** One entry of each: a path, a folder or a glob. */
function entriesOverlap(a: string, b: string): boolean {
  const x = clean(a);
  const y = clean(b);
  if (!x || !y) return false;
  if (x === y) return true;
  const fx = fixedPart(x);
  const fy = fixedPart(y);
  if (!fx.glob && !fy.glob) return x.startsWith(`${y}/`) || y.startsWith(`${x}/`);
  // A glob with no folder (`*.ts`) matches at any depth: it may meet anything.
  if ((fx.glob && !fx.fixed) || (fy.glob && !fy.fixed)) return true;
  if (!fx.glob) return fileInScope([y], x) || fy.fixed.startsWith(`${x}/`);
  if (!fy.glob) return fileInScope([x], y) || fx.fixed.startsWith(`${y}/`);
  return fx.fixed.startsWith(fy.fixed) || fy.fixed.startsWith(fx.fixed);
}

/** True when some file one step may change could also be changed by the other. */
export function filesOverlap(a: readonly string[], b: readonly string[]): boolean {
  return a.some((x) => b.some((y) => entriesOverlap(x, y)));
}
