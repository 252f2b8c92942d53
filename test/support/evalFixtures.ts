/**
 * Small eval suites written into a temp folder, in the on-disk task format (eval-suite/README.md):
 * real JavaScript repositories whose verifier is `node --test` on tests the agent never sees.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

export interface FixtureTask {
  id: string;
  prompt: string;
  repo: Record<string, string>;
  verify: Record<string, string>;
  reference: Record<string, string>;
  verifyCommand?: string;
  limits?: Record<string, number>;
}

export function writeTask(suite: string, t: FixtureTask): string {
  const dir = path.join(suite, t.id);
  writeFiles(path.join(dir, 'repo'), t.repo);
  writeFiles(path.join(dir, 'verify'), t.verify);
  writeFiles(path.join(dir, 'reference'), t.reference);
  fs.writeFileSync(path.join(dir, 'task.json'), JSON.stringify({
    format: 'tandem-eval-task/1',
    prompt: t.prompt,
    repo: 'repo',
    verify: { command: t.verifyCommand ?? 'node --test test/', files: 'verify' },
    reference: 'reference',
    ...(t.limits ? { limits: t.limits } : {}),
    language: 'javascript',
  }, null, 2));
  return dir;
}

/** Two tasks: a one-file bug fix and a change across two files. */
export const TWO_TASKS: FixtureTask[] = [
  {
    id: 'js/sum-fix',
    prompt: 'add() in sum.js subtracts instead of adding; make it add.',
    repo: { 'sum.js': 'exports.add = (a, b) => a - b;\n', 'package.json': '{"name":"sum","version":"1.0.0"}\n' },
    verify: { 'test/sum.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../sum');\ntest('adds', () => assert.equal(add(2, 3), 5));\n" },
    reference: { 'sum.js': 'exports.add = (a, b) => a + b;\n' },
  },
  {
    id: 'js/greet-shout',
    prompt: 'Add a shout option to greet(): greet("Ann", { shout: true }) returns "HELLO, ANN!", and export a VERSION constant "2.0.0" from version.js, re-exported by index.js.',
    repo: {
      'greet.js': "exports.greet = (name) => `Hello, ${name}!`;\n",
      'index.js': "module.exports = { ...require('./greet') };\n",
    },
    verify: { 'test/greet.test.js': "const test = require('node:test');\nconst assert = require('node:assert');\nconst lib = require('..');\ntest('shouts', () => assert.equal(lib.greet('Ann', { shout: true }), 'HELLO, ANN!'));\ntest('plain', () => assert.equal(lib.greet('Ann'), 'Hello, Ann!'));\ntest('version', () => assert.equal(lib.VERSION, '2.0.0'));\n" },
    reference: {
      'greet.js': "exports.greet = (name, opts = {}) => {\n  const s = `Hello, ${name}!`;\n  return opts.shout ? s.toUpperCase() : s;\n};\n",
      'version.js': "exports.VERSION = '2.0.0';\n",
      'index.js': "module.exports = { ...require('./greet'), ...require('./version') };\n",
    },
  },
];
