/**
 * The classic zod method API (`z.string().min(1).optional()`) on top of zod/mini, for the webview
 * bundle only (see webview-ui/build/leanZodPlugin.mjs for why). Type checking still uses real zod;
 * this file only has to *behave* like it for the schema shapes src/protocol uses. A modifier it
 * does not know (e.g. `.describe()` added to the protocol later) becomes a logged no-op instead of
 * a crash at load: a blank panel is the one failure the webview must never have.
 */
import * as m from 'zod/mini';

// The webview's CSP forbids eval; tell zod not to try its `new Function` fast path.
m.config({ jitless: true });

/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const warned = new Set<string>();

function isNumeric(s: Any): boolean {
  const t = s?._zod?.def?.type;
  return t === 'number' || t === 'bigint' || t === 'int';
}

function enhance(s: Any): Any {
  const methods: Record<string, (...a: Any[]) => Any> = {
    optional: () => enhance(m.optional(s)),
    nullable: () => enhance(m.nullable(s)),
    nullish: () => enhance(m.nullish(s)),
    min: (n: number) => enhance(s.check(isNumeric(s) ? m.gte(n) : m.minLength(n))),
    max: (n: number) => enhance(s.check(isNumeric(s) ? m.lte(n) : m.maxLength(n))),
    gte: (n: number) => enhance(s.check(m.gte(n))),
    lte: (n: number) => enhance(s.check(m.lte(n))),
    gt: (n: number) => enhance(s.check(m.gt(n))),
    lt: (n: number) => enhance(s.check(m.lt(n))),
    positive: () => enhance(s.check(m.gt(0))),
    nonnegative: () => enhance(s.check(m.gte(0))),
    length: (n: number) => enhance(s.check(m.length(n))),
    nonempty: () => enhance(s.check(m.minLength(1))),
    int: () => enhance(s.check(m.refine((v: unknown) => Number.isSafeInteger(v), { message: 'Expected an integer' }))),
    regex: (r: RegExp) => enhance(s.check(m.regex(r))),
    refine: (fn: (v: Any) => unknown, params?: Any) => enhance(s.check(m.refine(fn, params))),
    default: (v: unknown) => enhance(m._default(s, v)),
    array: () => enhance(m.array(s)),
    or: (o: Any) => enhance(m.union([s, o])),
    extend: (shape: Any) => enhance(m.extend(s, shape)),
    describe: () => enhance(s),
    meta: () => enhance(s),
  };
  for (const [k, fn] of Object.entries(methods)) if (!(k in s)) Object.defineProperty(s, k, { value: fn, enumerable: false });
  return new Proxy(s, {
    get(target, prop, receiver) {
      if (prop in target || typeof prop !== 'string' || prop.startsWith('_') || prop.startsWith('~') || prop === 'then' || prop === 'toJSON') {
        return Reflect.get(target, prop, receiver);
      }
      if (!warned.has(prop)) {
        warned.add(prop);
        console.warn(`[tandem] zodOnMini: .${prop}() is not mapped; treated as a no-op in the webview`);
      }
      return () => receiver;
    },
  });
}

const wrap = <F extends (...a: Any[]) => Any>(f: F) => ((...a: Any[]) => enhance(f(...a))) as F;

export const z: Any = {
  string: wrap(m.string),
  number: wrap(m.number),
  boolean: wrap(m.boolean),
  literal: wrap(m.literal),
  enum: wrap(m.enum),
  array: wrap(m.array),
  object: wrap(m.object),
  strictObject: wrap(m.strictObject),
  looseObject: wrap(m.looseObject),
  record: wrap(m.record),
  unknown: wrap(m.unknown),
  any: wrap(m.any),
  null: wrap(m.null),
  union: wrap(m.union),
  discriminatedUnion: wrap(m.discriminatedUnion),
  tuple: wrap(m.tuple),
  optional: wrap(m.optional),
  nullable: wrap(m.nullable),
  int: wrap(m.int),
  lazy: wrap(m.lazy),
};
export default z;
// src/ imports zod as a namespace (`import * as z from 'zod'`: the extension bundle then keeps only
// the parts of classic zod it uses), so the same members are named exports here too.
export const { string, number, boolean, literal, array, object, strictObject, looseObject, record, unknown, any, union, discriminatedUnion, tuple, optional, nullable, int, lazy } = z;
export const { enum: enum_, null: null_ } = z;
export { enum_ as enum, null_ as null };
