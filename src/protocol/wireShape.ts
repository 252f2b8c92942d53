/**
 * A protocol schema as plain data (see scripts/gen-wire-shapes.mjs, which derives them from the zod
 * schemas into wireShapes.ts): alternatives joined by `|` — `s` string, `n` number, `b` boolean,
 * `o` any object, `a` any array, `u` anything, `0` null, `?` absent, `=x` the literal x — or an
 * object's fields (key `''`: the object's own `?`/`0` alternatives), or `[shape]` for an array of
 * objects (`[shape, '?']`: or absent). The webview checks what the host posts with `shapeProblem` instead of bundling zod.
 */
export type WireShape = string | readonly [WireShape] | readonly [WireShape, string] | { readonly [field: string]: WireShape };

function code(v: unknown): string {
  if (v === undefined) return '?';
  if (v === null) return '0';
  if (Array.isArray(v)) return 'a';
  const t = typeof v;
  return t === 'string' ? 's' : t === 'number' ? (Number.isFinite(v) ? 'n' : 'x') : t === 'boolean' ? 'b' : t === 'object' ? 'o' : 'x';
}

/** Why `v` does not have `shape` ("display: expected o|?, got number"), or undefined when it does. */
export function shapeProblem(v: unknown, shape: WireShape, path = ''): string | undefined {
  const at = path || '(root)';
  if (typeof shape === 'string') {
    const alts = shape.split('|');
    const c = code(v);
    if (alts.includes('u') || alts.includes(c) || ('snb'.includes(c) && alts.includes(`=${String(v)}`))) return undefined;
    return `${at}: expected ${shape.replace(/=/g, '')}, got ${c === '?' ? 'nothing' : c === 'x' ? typeof v : JSON.stringify(v)?.slice(0, 40)}`;
  }
  if (Array.isArray(shape)) {
    const list = shape as readonly [WireShape, string?];
    if (!Array.isArray(v)) return list[1]?.split('|').includes(code(v)) ? undefined : `${at}: expected a list, got ${code(v) === '?' ? 'nothing' : typeof v}`;
    for (let i = 0; i < v.length; i++) {
      const p = shapeProblem(v[i], list[0], `${path}${path ? '.' : ''}${i}`);
      if (p) return p;
    }
    return undefined;
  }
  const fields = shape as { readonly [field: string]: WireShape };
  const c = code(v);
  if (c !== 'o') {
    const own = typeof fields[''] === 'string' ? (fields[''] as string).split('|') : [];
    return own.includes(c) ? undefined : `${at}: expected an object, got ${c === '?' ? 'nothing' : JSON.stringify(v)?.slice(0, 40) ?? typeof v}`;
  }
  for (const k in fields) {
    if (k === '') continue;
    const p = shapeProblem((v as Record<string, unknown>)[k], fields[k]!, path ? `${path}.${k}` : k);
    if (p) return p;
  }
  return undefined;
}
