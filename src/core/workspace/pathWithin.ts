/** Whether one path is inside another, compared as the platform's file system compares names. */
import * as path from 'node:path';

const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

/** True when `child` is `parent` or below it. Compares whole path segments: `/ws-evil` is not in `/ws`. */
export function isWithin(parent: string, child: string): boolean {
  const a = caseInsensitive ? parent.toLowerCase() : parent;
  const b = caseInsensitive ? child.toLowerCase() : child;
  if (a === b) return true;
  const rel = path.relative(a, b);
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel);
}
