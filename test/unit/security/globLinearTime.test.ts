/**
 * find_files (a read tool: the Planner may call it without approval) matched globs with a
 * backtracking RegExp: `*a*a*a*a*a*a*a*a*a*a*a*b` against a 60-character name of a's never finished,
 * freezing the agent and the editor's extension host. The matcher now runs the glob as an NFA.
 * Checked here: the attack ends (through the built CLI), and the NFA agrees with the RegExp
 * translation on thousands of random small globs and paths (where the RegExp is still fast).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliTestKit } from '../../support/cliRunner';
import { globMatcher } from '../../../src/core/tools/glob';
import { globToRegExp } from './globReference';
import { calls, runCliAgainst, tc, text } from './securityKit';

/** Deterministic PRNG (mulberry32), so a failure names a reproducible case. */
function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function reference(glob: string): (rel: string) => boolean {
  let p = glob.trim().replace(/\\/g, '/');
  if (p.startsWith('./')) p = p.slice(2);
  const anchored = p.includes('/');
  if (p.startsWith('/')) p = p.slice(1);
  const re = globToRegExp(p);
  return anchored ? (rel) => re.test(rel) : (rel) => re.test(rel.slice(rel.lastIndexOf('/') + 1));
}

describe('security: glob matching takes linear time', function () {
  this.timeout(60_000);

  it('agrees with the RegExp translation on 40,000 random globs × paths', () => {
    const next = rng(1234);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!;
    const globParts = ['a', 'b', '.', '/', '*', '**', '**/', '?', '[ab]', '[!a]', '{a,b}', '{a,{b,.}}', '{', '[', ']', '}', ',', 'x', '[{]', '[a-c]', '{**/}'];
    const pathParts = ['a', 'b', '.', '/', 'x', 'ab', 'a/b', '[', '{', '}', ']', ','];
    let disagreements: string[] = [];
    for (let g = 0; g < 4000; g++) {
      const glob = Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick(globParts)).join('');
      const ours = globMatcher(glob);
      const ref = reference(glob);
      for (let k = 0; k < 10; k++) {
        const p = Array.from({ length: 1 + Math.floor(next() * 5) }, () => pick(pathParts)).join('').replace(/^\/+/, '');
        if (ours(p) !== ref(p)) disagreements.push(`${JSON.stringify(glob)} on ${JSON.stringify(p)}: ours ${ours(p)}, RegExp ${ref(p)}`);
      }
    }
    disagreements = disagreements.slice(0, 10);
    assert.deepEqual(disagreements, []);
  });

  it('matches adversarial globs on long names without blowing up (would not finish with a RegExp)', () => {
    const name = 'a'.repeat(200);
    assert.equal(globMatcher('*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b')(name), false);
    assert.equal(globMatcher('**a**a**a**a**a**a**a**a**a**b')(`x/${name}`), false);
    assert.equal(globMatcher('**/**/**/**/**/**/**/**/b')(`${'a/'.repeat(100)}c`), false);
    assert.equal(globMatcher('*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a')(name), true);
  });

  it('matches a brace bomb without expanding it (2^30 alternatives)', () => {
    const m = globMatcher('{a,b}'.repeat(30));
    assert.equal(m('ab'.repeat(15)), true);
    assert.equal(m('ab'.repeat(14) + 'ac'), false);
  });

  describe('through the built CLI', () => {
    const kit = cliTestKit({
      prefix: 'tandem-sec-glob-',
      setup(ws) {
        fs.writeFileSync(path.join(ws, `${'a'.repeat(60)}`), 'bait\n');
        fs.writeFileSync(path.join(ws, 'b.txt'), 'b\n');
      },
    });

    it('the Planner\'s find_files with a catastrophic glob ends the turn', async () => {
      const r = await runCliAgainst(kit.cli, [calls(tc('find_files', { pattern: '*a*a*a*a*a*a*a*a*a*a*a*a*b' }), tc('find_files', { pattern: '*.txt' })), text('done')], kit.ws, ['go'], {});
      kit.server = r.server;
      assert.equal(r.run.code, 0, r.run.stderr);
      const results = r.server.chatRequests()[1].messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
      assert.match(results[0], /No files match/);
      assert.match(results[1], /b\.txt/);
    });
  });
});
