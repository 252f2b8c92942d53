// Mocha's globals on node:test, so a project's own mocha tests (BDD describe/it or TDD suite/test,
// hooks, done callbacks, this.timeout) run with Node alone: no install, no network. Part of each
// JavaScript task's verifier (`node --require ./.tandem-eval/mocha.js --test test/`).
'use strict';
const t = require('node:test');

const context = { timeout() { return this; }, slow() { return this; }, retries() { return this; }, skip() {} };
/** mocha passes `done` as the first argument when the function declares one; node:test as the second. */
const wrap = (fn) => (typeof fn !== 'function' ? undefined : fn.length ? (_t, done) => fn.call(context, (err) => done(err)) : () => fn.call(context));
const test = (name, fn) => (fn === undefined ? t.it(name, { todo: true }) : t.it(name, wrap(fn)));
test.skip = (name) => t.it.skip(name);
test.only = test;
// TDD's `suite('name')` without a body only names the tests that follow: nothing to run.
const suite = (name, fn) => (fn === undefined ? undefined : t.describe(name, () => fn.call(context)));
suite.skip = (name) => t.describe.skip(name);
suite.only = suite;
const hook = (h) => (fn) => h(wrap(fn));
Object.assign(globalThis, {
  describe: suite, context: suite, suite,
  it: test, specify: test, test,
  before: hook(t.before), after: hook(t.after), beforeEach: hook(t.beforeEach), afterEach: hook(t.afterEach),
  suiteSetup: hook(t.before), suiteTeardown: hook(t.after), setup: hook(t.beforeEach), teardown: hook(t.afterEach),
});
