// The part of vitest's API a project's own tests use (describe, it, it.each, expect with toEqual,
// toStrictEqual, toBe, toThrow, toBeUndefined…, .not), on node:test and node:assert, so they run
// with Node alone: no install, no network. `import … from "vitest"` gets this module.
// Part of each TypeScript task's verifier (`node --require ./.tandem-eval/vitest.js --test …`).
'use strict';
const t = require('node:test');
const assert = require('node:assert/strict');
const util = require('node:util');
const Module = require('node:module');

/** vitest's toEqual: recursive equality where a property that is undefined counts as absent. */
function equals(a, b, strict) {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof RegExp || b instanceof RegExp) return String(a) === String(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (a instanceof Map || a instanceof Set) return util.isDeepStrictEqual(a, b);
  if (Array.isArray(a) && a.length !== b.length) return false;
  const keys = (o) => Object.keys(o).filter((k) => strict || o[k] !== undefined);
  const ka = keys(a);
  const kb = keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equals(a[k], b[k], strict));
}

const show = (v) => util.inspect(v, { depth: 6 });

function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return { error: e };
  }
  return undefined;
}

function matchesError(error, expected) {
  if (expected === undefined) return true;
  const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : String(error);
  if (typeof expected === 'string') return message.includes(expected);
  if (expected instanceof RegExp) return expected.test(message);
  if (typeof expected === 'function') return error instanceof expected;
  if (expected && typeof expected === 'object' && 'message' in expected) return message === expected.message;
  return false;
}

function expect(actual) {
  const make = (negated) => {
    const check = (ok, what) => {
      if (ok === negated) throw new assert.AssertionError({ message: `expected ${show(actual)} ${negated ? 'not ' : ''}${what}`, actual, operator: what });
    };
    const m = {
      toBe: (e) => check(Object.is(actual, e), `to be ${show(e)}`),
      toEqual: (e) => check(equals(actual, e, false), `to equal ${show(e)}`),
      toStrictEqual: (e) => check(equals(actual, e, true), `to strictly equal ${show(e)}`),
      toBeUndefined: () => check(actual === undefined, 'to be undefined'),
      toBeDefined: () => check(actual !== undefined, 'to be defined'),
      toBeNull: () => check(actual === null, 'to be null'),
      toBeTruthy: () => check(Boolean(actual), 'to be truthy'),
      toBeFalsy: () => check(!actual, 'to be falsy'),
      toBeInstanceOf: (c) => check(actual instanceof c, `to be an instance of ${c.name}`),
      toContain: (e) => check(actual != null && actual.includes(e), `to contain ${show(e)}`),
      toHaveLength: (n) => check(actual != null && actual.length === n, `to have length ${n}`),
      toMatch: (e) => check(typeof actual === 'string' && (e instanceof RegExp ? e.test(actual) : actual.includes(e)), `to match ${show(e)}`),
      toHaveProperty: (k, ...v) => check(actual != null && k in Object(actual) && (!v.length || equals(actual[k], v[0], false)), `to have property ${show(k)}`),
      toThrow: (e) => {
        const r = thrown(actual);
        check(r !== undefined && matchesError(r.error, e), `to throw${e === undefined ? '' : ` ${show(e)}`}${r ? ` (threw ${show(r.error && r.error.message !== undefined ? r.error.message : r.error)})` : ' (it did not throw)'}`);
      },
    };
    m.toThrowError = m.toThrow;
    return m;
  };
  const matchers = make(false);
  matchers.not = make(true);
  return matchers;
}

/** vitest's test names for `each`: printf-style %s %d %i %j %o %%, %# the row's index, $key for objects. */
function nameOf(template, row, index) {
  const args = Array.isArray(row) ? [...row] : [row];
  let name = template.replace(/%([sdifjo#%])/g, (all, c) => {
    if (c === '%') return '%';
    if (c === '#') return String(index);
    if (!args.length) return all;
    const v = args.shift();
    return c === 's' ? (typeof v === 'string' ? v : show(v)) : c === 'd' || c === 'i' ? String(parseInt(v, 10)) : c === 'f' ? String(Number(v)) : c === 'j' ? JSON.stringify(v) : show(v);
  });
  if (row && typeof row === 'object' && !Array.isArray(row)) name = name.replace(/\$([A-Za-z_][\w.]*)/g, (all, k) => (k in row ? show(row[k]) : all));
  return name;
}

const withEach = (define) => {
  define.each = (table) => (template, fn) => table.forEach((row, i) => define(nameOf(template, row, i), () => (Array.isArray(row) ? fn(...row) : fn(row))));
  return define;
};
const it = withEach((name, fn) => (fn === undefined ? t.it(name, { todo: true }) : t.it(name, () => fn())));
it.skip = (name) => t.it.skip(name);
it.only = it;
it.todo = (name) => t.it(name, { todo: true });
const describe = withEach((name, fn) => t.describe(name, () => fn()));
describe.skip = (name) => t.describe.skip(name);
describe.only = describe;

const hooks = { beforeAll: t.before, afterAll: t.after, beforeEach: t.beforeEach, afterEach: t.afterEach };
const api = { describe, suite: describe, it, test: it, expect, ...Object.fromEntries(Object.entries(hooks).map(([k, h]) => [k, (fn) => h(() => fn())])) };
module.exports = api;

// `import { describe, it, expect } from "vitest"` (compiled to require) gets this module.
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return request === 'vitest' ? __filename : resolve.call(this, request, ...rest);
};
