/**
 * Facts across tasks through the built CLI (child processes, a scripted model over a real socket):
 * learned from one task's review, sent to the next task's Planner and Actor (never the Reviewer),
 * checked against the cited lines before each request, refused where a read would be, kept per
 * workspace, off with --no-facts, and forgotten with `tandem facts rm`.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { HostEvent } from '../../../src/protocol';
import { type CliRun, cliTestKit, runCliProcess } from '../../support/cliRunner';
import { execFileSync } from 'node:child_process';
import { ScriptedServer, planStepOf, type ScriptStep } from '../../support/scriptedServer';
import { call, json, text } from '../../support/scriptSteps';

const APP = ['from flask import Flask', '', 'app = Flask(__name__)', '', '@app.route("/")', 'def index():', '    return "hi"', ''].join('\n');
const FACT = 'The web app uses Flask, not FastAPI';

function plan() {
  return {
    format_version: '1.0',
    goal: 'Create notes.txt',
    steps: [{ step_number: 1, action: 'Create notes.txt containing hello', reason: 'notes', tools_needed: ['write_file'], estimated_time: '1 min', files: ['notes.txt'], check: 'grep -q hello notes.txt' }],
    estimated_total_time: '1 min',
    risks: [],
    prerequisites: [],
  };
}

const learning = (learn: Record<string, unknown>): ScriptStep => json({ verdict: 'ok', reasons: ['sound'], concerns: [], learn });
const flaskFact = { text: FACT, file: 'src/app.py', start_line: 1, end_line: 3, command: null };
const systemOf = (body: any): string => String(body.messages[0].content);
const events = (r: CliRun) => r.stdout.trim().split('\n').filter(Boolean).map((l) => HostEvent.parse(JSON.parse(l)));
const cards = (r: CliRun) => events(r).flatMap((e) => (e.type === 'card_added' ? [e.card] : []));

describe('facts across tasks (built CLI, scripted model)', function () {
  this.timeout(60_000);
  let data: string;
  const kit = cliTestKit({
    prefix: 'tandem-facts-',
    realpath: true,
    setup: (ws) => {
      fs.mkdirSync(path.join(ws, 'src'));
      fs.writeFileSync(path.join(ws, 'src', 'app.py'), APP);
      fs.writeFileSync(path.join(ws, '.env'), 'API_TOKEN=tok-very-secret-123\n');
      fs.writeFileSync(path.join(ws, 'plan.json'), JSON.stringify(plan()));
    },
  });
  beforeEach(() => {
    data = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-facts-data-'));
  });
  afterEach(() => fs.rmSync(data, { recursive: true, force: true }));
  const tandem = (steps: ScriptStep[], args: string[], env: Record<string, string> = {}) => kit.run(steps, args, { TANDEM_DATA_DIR: data, ...env });
  const facts = (...args: string[]) => runCliProcess(kit.cli, ['facts', ...args, '--workspace', kit.ws], { env: { TANDEM_DATA_DIR: data } });
  /** The plan's review learns `learn` (tandem review: one request, the verdict). */
  const review = (learn: Record<string, unknown>) => tandem([learning(learn)], ['review', '--plan', path.join(kit.ws, 'plan.json'), '--json']);

  it("a fact learned in one task's review is in the next task's Planner and Actor requests, never the Reviewer's", async () => {
    const first = await tandem(
      [learning(flaskFact), call('write_file', { path: 'notes.txt', content: 'hello\n' }), text('Created notes.txt.')],
      ['run', '--role', 'actor', '--plan', path.join(kit.ws, 'plan.json'), '--review', 'plan', '--approve', 'all', '--json'],
    );
    assert.equal(first.code, 0, first.stderr);
    const learned = cards(first).find((c) => c.kind === 'learned');
    assert.ok(learned && learned.kind === 'learned' && !learned.refused, `a learned card: ${JSON.stringify(learned)}`);
    assert.equal(learned.fact.text, FACT);
    assert.equal(learned.fact.cited, 'src/app.py:1-3');
    assert.doesNotMatch(systemOf(kit.server!.chatRequests()[0]), /Facts about this project/, 'the Reviewer is never sent facts');

    // The next task, as the Planner: the fact is in its system prompt, with its citation, and the chat says it was sent.
    const planner = await tandem([text('Noted.')], ['run', 'Add a /health route to src/app.py']);
    assert.equal(planner.code, 0, planner.stderr);
    const [preq] = kit.server!.chatRequests();
    assert.match(systemOf(preq), /## Facts about this project/);
    assert.ok(systemOf(preq).includes(`- ${FACT} [src/app.py:1-3]`), systemOf(preq));
    assert.match(planner.stderr, /» Facts sent to the planner: f[0-9a-f]{8} "The web app uses Flask, not FastAPI" \[src\/app\.py:1-3\]/);

    // And as the Actor, in its own task.
    const actor = await tandem([text('Done.')], ['run', '--role', 'actor', '--json', 'Say hello']);
    assert.equal(actor.code, 0, actor.stderr);
    assert.ok(systemOf(kit.server!.chatRequests()[0]).includes(`- ${FACT} [src/app.py:1-3]`));
    const sent = cards(actor).find((c) => c.kind === 'facts');
    assert.ok(sent && sent.kind === 'facts' && sent.role === 'actor' && sent.sent.map((f) => f.text).join() === FACT);

    // A review in a later task still gets none.
    const again = await tandem([json({ verdict: 'ok', reasons: ['fine'], concerns: [] })], ['review', '--plan', path.join(kit.ws, 'plan.json')]);
    assert.equal(again.code, 0, again.stderr);
    assert.doesNotMatch(JSON.stringify(kit.server!.chatRequests()[0].messages), /Flask, not FastAPI/);
  });

  it('its cited lines changed: not sent, and `tandem facts list` shows it stale with why', async () => {
    assert.equal((await review(flaskFact)).code, 0);
    fs.writeFileSync(path.join(kit.ws, 'src', 'app.py'), APP.replace('from flask import Flask', 'from fastapi import FastAPI'));
    const r = await tandem([text('ok')], ['run', 'Add a route']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(systemOf(kit.server!.chatRequests()[0]), /Facts about this project|Flask, not FastAPI/);
    assert.match(r.stderr, /stale, not sent: f[0-9a-f]{8} "The web app uses Flask, not FastAPI" — src\/app\.py:1-3 changed since it was learned/);
    const list = await facts('list');
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, /STALE The web app uses Flask, not FastAPI\n {4}— from src\/app\.py:1-3 \(learned by the reviewer/);
    assert.match(list.stdout, /stale, not sent: src\/app\.py:1-3 changed since it was learned/);
    // The file gone: stale too.
    fs.rmSync(path.join(kit.ws, 'src', 'app.py'));
    assert.match((await facts('list')).stdout, /stale, not sent: src\/app\.py is gone/);
  });

  it('a learned fact citing .env (or an ignored file, or a file outside) is refused and never kept', async () => {
    fs.writeFileSync(path.join(kit.ws, '.gitignore'), 'secret-notes.txt\n');
    fs.writeFileSync(path.join(kit.ws, 'secret-notes.txt'), 'x\n');
    const env = await review({ text: 'The token is in .env', file: '.env', start_line: 1, end_line: 1, command: null });
    assert.equal(env.code, 0, 'the verdict stands');
    const refused = cards(env).find((c) => c.kind === 'learned');
    assert.ok(refused && refused.kind === 'learned' && refused.refused, JSON.stringify(refused));
    assert.match(refused.refused!, /Refused: \.env is a secret file/);
    const ignored = cards(await review({ text: 'Notes are secret', file: 'secret-notes.txt', start_line: 1, end_line: 1, command: null })).find((c) => c.kind === 'learned');
    assert.match((ignored as any).refused, /excluded by the workspace's ignore rules/);
    const outside = cards(await review({ text: 'Passwords live here', file: '/etc/passwd', start_line: 1, end_line: 1, command: null })).find((c) => c.kind === 'learned');
    assert.match((outside as any).refused, /outside the workspace/);
    const noLines = cards(await review({ text: FACT, file: 'src/app.py', start_line: 40, end_line: 41, command: null })).find((c) => c.kind === 'learned');
    assert.match((noLines as any).refused, /src\/app\.py has 7 lines; lines 40-41 do not exist/);
    assert.equal((await facts('list')).stdout, 'No facts for this workspace.\n');
    // The user is refused the same way.
    const add = await facts('add', 'Token here', '--cite', '.env:1-1');
    assert.equal(add.code, 1);
    assert.match(add.stderr, /fact not added: Refused: \.env is a secret file/);
  });

  it("a fact of workspace A never reaches workspace B, even with one --history-dir for both", async () => {
    assert.equal((await review(flaskFact)).code, 0);
    const b = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-facts-b-')));
    const shared = path.join(data, 'shared-history');
    try {
      fs.mkdirSync(path.join(b, 'src'));
      fs.writeFileSync(path.join(b, 'src', 'app.py'), APP);
      const server = await ScriptedServer.start([text('ok'), learning(flaskFact), text('ok'), text('ok')]);
      try {
        const inB = (args: string[]) => runCliProcess(kit.cli, [...args, '--workspace', b, '--base-url', server.url], { env: { TANDEM_DATA_DIR: data, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' } });
        assert.equal((await inB(['run', 'Add a route to src/app.py'])).code, 0);
        assert.doesNotMatch(systemOf(server.chatRequests()[0]), /Facts about this project/);
        // A history folder shared by both: A learns there, B still sees nothing of it.
        fs.writeFileSync(path.join(kit.ws, 'plan.json'), JSON.stringify(plan()));
        const inA = await runCliProcess(kit.cli, ['review', '--plan', path.join(kit.ws, 'plan.json'), '--workspace', kit.ws, '--history-dir', shared, '--base-url', server.url], { env: { TANDEM_DATA_DIR: data, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' } });
        assert.equal(inA.code, 0, inA.stderr);
        assert.match(inA.stderr, /» Learned: The web app uses Flask/);
        assert.equal((await inB(['run', '--history-dir', shared, 'Add a route to src/app.py'])).code, 0);
        assert.doesNotMatch(systemOf(server.chatRequests()[2]), /Facts about this project/);
        const listB = await runCliProcess(kit.cli, ['facts', 'list', '--workspace', b, '--history-dir', shared], { env: { TANDEM_DATA_DIR: data } });
        assert.equal(listB.stdout, 'No facts for this workspace.\n');
      } finally {
        await server.close();
      }
    } finally {
      fs.rmSync(b, { recursive: true, force: true });
    }
  });

  it('--no-facts sends none (and shows none)', async () => {
    assert.equal((await review(flaskFact)).code, 0);
    const r = await tandem([text('ok')], ['run', '--no-facts', '--json', 'Add a route to src/app.py']);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(systemOf(kit.server!.chatRequests()[0]), /Facts about this project|Flask, not FastAPI/);
    assert.ok(!cards(r).some((c) => c.kind === 'facts'));
    // TANDEM_FACTS=off too.
    const off = await tandem([text('ok')], ['run', 'Add a route to src/app.py'], { TANDEM_FACTS: 'off' });
    assert.doesNotMatch(systemOf(kit.server!.chatRequests()[0]), /Facts about this project/);
    assert.equal(off.code, 0);
  });

  it('`tandem facts rm` removes one: gone from the list and from the next request', async () => {
    assert.equal((await review(flaskFact)).code, 0);
    const add = await facts('add', 'Routes live in src/app.py', '--cite', 'src/app.py:5-7');
    assert.equal(add.code, 0, add.stderr);
    const listed = (await facts('list', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(listed.map((v) => v.fact.text).sort(), ['Routes live in src/app.py', FACT]);
    const flask = listed.find((v) => v.fact.text === FACT)!.fact.id as string;
    const rm = await facts('rm', flask.slice(0, 5));
    assert.equal(rm.code, 0, rm.stderr);
    assert.match(rm.stdout, new RegExp(`Forgot ${flask}: ${FACT}`));
    assert.doesNotMatch((await facts('list')).stdout, /Flask/);
    const r = await tandem([text('ok')], ['run', 'Add a route']);
    const system = systemOf(kit.server!.chatRequests()[0]);
    assert.doesNotMatch(system, /Flask, not FastAPI/);
    assert.ok(system.includes('- Routes live in src/app.py [src/app.py:5-7]'));
    assert.equal(r.code, 0);
    assert.equal((await facts('rm', 'fnothere')).code, 1);
  });

  it('a learn without a citation is sent back for repair (strict schema offers learn), and the repaired fact is kept', async () => {
    const r = await tandem(
      [learning({ text: FACT, file: null, start_line: null, end_line: null, command: null }), learning(flaskFact)],
      ['review', '--plan', path.join(kit.ws, 'plan.json'), '--json'],
    );
    assert.equal(r.code, 0, r.stderr);
    const [first, repair] = kit.server!.chatRequests();
    const schema = first.response_format?.json_schema?.schema;
    assert.ok(schema?.properties?.learn, 'the verdict schema offers learn');
    assert.ok(schema.required.includes('learn'), 'strict: every property required, learn nullable');
    assert.match(JSON.stringify(repair.messages.at(-1).content), /learn: a fact needs a citation/);
    const learned = cards(r).find((c) => c.kind === 'learned');
    assert.ok(learned && learned.kind === 'learned' && !learned.refused && learned.fact.cited === 'src/app.py:1-3');
  });

  it("a step review learns from the check's output (cited by its command); each side-by-side step's Actor is sent the facts", async () => {
    const r = await tandem(
      [call('write_file', { path: 'notes.txt', content: 'hello\n' }), text('Created notes.txt.'), learning({ text: 'notes.txt must say hello', file: null, start_line: null, end_line: null, command: 'grep -q hello notes.txt' })],
      ['run', '--role', 'actor', '--plan', path.join(kit.ws, 'plan.json'), '--review', 'steps', '--approve', 'all', '--json'],
    );
    assert.equal(r.code, 0, r.stderr);
    const learned = cards(r).find((c) => c.kind === 'learned');
    assert.ok(learned && learned.kind === 'learned' && !learned.refused && learned.step === 1, JSON.stringify(learned));
    assert.equal(learned.fact.cited, '`grep -q hello notes.txt`');
    assert.match((await facts('list')).stdout, /notes\.txt must say hello\n {4}— from `grep -q hello notes\.txt` \(learned by the reviewer, gpt-4o-mini\)/);

    // Two independent steps, each in its own git worktree with its own Actor: both are sent the facts.
    const git = (...a: string[]) => execFileSync('git', a, { cwd: kit.ws, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init');
    const two = { ...plan(), steps: [1, 2].map((n) => ({ step_number: n, action: `Write s${n}.txt`, reason: 'notes', tools_needed: ['write_file'], estimated_time: '1m', files: [`s${n}.txt`], check: `test -s s${n}.txt`, depends_on: [] })) };
    const file = path.join(data, 'two.json');
    fs.writeFileSync(file, JSON.stringify(two));
    const lanes = Object.fromEntries([1, 2].map((n) => [String(n), [call('write_file', { path: `s${n}.txt`, content: `${n}\n` }), text(`Wrote s${n}.`)]]));
    const server = await ScriptedServer.start([], { lanes: { keyOf: planStepOf, steps: lanes }, answerDelayMs: 150 });
    try {
      const run = await runCliProcess(kit.cli, ['run', '--workspace', kit.ws, '--base-url', server.url, '--role', 'actor', '--plan', file, '--approve', 'plan', '--json', '--no-history'], { env: { TANDEM_DATA_DIR: data, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' }, timeoutMs: 50_000 });
      assert.equal(run.code, 0, run.stderr);
      for (const n of ['1', '2']) {
        const first = server.chatRequests().find((b) => planStepOf(b) === n);
        assert.ok(first, `step ${n} asked the model`);
        assert.ok(systemOf(first).includes('- notes.txt must say hello [`grep -q hello notes.txt`]'), `step ${n}'s Actor: ${systemOf(first)}`);
      }
    } finally {
      await server.close();
    }
  });

  it('past the maximum, `tandem facts consolidate` shows the summary model\'s proposal first; --apply keeps it, `facts undo` puts them back', async () => {
    for (const [t, c] of [['Tests run with npm test', 'src/app.py:1-1'], ['The tests are run by npm test', 'src/app.py:3-3'], ['Routes live in src/app.py', 'src/app.py:5-7']] as const) {
      assert.equal((await facts('add', t, '--cite', c)).code, 0);
    }
    fs.writeFileSync(path.join(kit.ws, 'src', 'app.py'), APP.replace('@app.route("/")', '@app.get("/")'));
    const ids = Object.fromEntries((await facts('list', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l)).map((v) => [v.fact.text, v.fact.id as string]));
    const [a, b, c] = [ids['Tests run with npm test']!, ids['The tests are run by npm test']!, ids['Routes live in src/app.py']!];
    assert.match((await runCliProcess(kit.cli, ['facts', 'list', '--workspace', kit.ws], { env: { TANDEM_DATA_DIR: data, TANDEM_FACTS_MAX: '2' } })).stdout, /3 facts, past TANDEM_FACTS_MAX \(2\): tandem facts consolidate/);
    const answer = text(JSON.stringify({ facts: [{ from: [a, b], text: 'Tests run with `npm test`' }], drop: [{ id: c, why: 'its cited lines changed' }] }));
    const shown = await tandem([answer], ['facts', 'consolidate']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(shown.stdout, `Facts: 3 → 1\n  merged ${a}, ${b} → ${a}: Tests run with \`npm test\`\n  dropped ${c}: Routes live in src/app.py — its cited lines changed\nNothing was replaced: run it again with --apply to keep this.\n`);
    const [req] = kit.server!.chatRequests();
    assert.match(req.messages[0].content, /You consolidate the facts/);
    assert.match(req.messages[1].content, new RegExp(`- ${c}: Routes live in src/app.py \\[src/app.py:5-7\\] \\(stale: src/app.py:5-7 changed since it was learned\\)`));
    assert.equal((await facts('list', '--json')).stdout.trim().split('\n').length, 3, 'nothing replaced before --apply');

    const kept = await tandem([answer], ['facts', 'consolidate', '--apply']);
    assert.equal(kept.code, 0, kept.stderr);
    assert.match(kept.stdout, /Kept\. Undo it with: tandem facts undo/);
    const after = (await facts('list', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(after.map((v) => [v.fact.id, v.fact.text, v.cited]), [[a, 'Tests run with `npm test`', 'src/app.py:1, src/app.py:3']]);
    const undo = await facts('undo');
    assert.equal(undo.code, 0, undo.stderr);
    assert.deepEqual((await facts('list', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l).fact.id).sort(), [a, b, c].sort());
  });

  it('a run whose review takes the facts past TANDEM_FACTS_MAX says so once, with the consolidate command; a run that learns nothing does not', async () => {
    assert.equal((await facts('add', 'Routes live in src/app.py', '--cite', 'src/app.py:5-7')).code, 0);
    const past = await tandem([learning(flaskFact)], ['review', '--plan', path.join(kit.ws, 'plan.json')], { TANDEM_FACTS_MAX: '1' });
    assert.equal(past.code, 0, past.stderr);
    const lines = past.stderr.split('\n').filter((l) => /past TANDEM_FACTS_MAX/.test(l));
    assert.deepEqual(lines, ['» 2 facts about this workspace, past TANDEM_FACTS_MAX (1): tandem facts consolidate proposes merging and dropping some (nothing changes without --apply).']);
    const quiet = await tandem([text('ok')], ['run', 'Add a route'], { TANDEM_FACTS_MAX: '1' });
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.doesNotMatch(quiet.stderr, /past TANDEM_FACTS_MAX/);
  });

  it('`tandem facts consolidate`: an answer the schema rejects goes back for one repair; a second bad one is a clear error and nothing is replaced', async () => {
    for (const [t, c] of [['Tests run with npm test', 'src/app.py:1-1'], ['The tests are run by npm test', 'src/app.py:3-3'], ['Routes live in src/app.py', 'src/app.py:5-7']] as const) {
      assert.equal((await facts('add', t, '--cite', c)).code, 0);
    }
    const ids = Object.fromEntries((await facts('list', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l)).map((v) => [v.fact.text, v.fact.id as string]));
    const [a, b] = [ids['Tests run with npm test']!, ids['The tests are run by npm test']!];
    // Not the schema ("from" a string, "drop" missing), then a good answer: the repaired one is proposed.
    const repaired = await tandem(
      [text(JSON.stringify({ facts: [{ from: a, text: 'Tests run with npm test' }] })), text(JSON.stringify({ facts: [{ from: [a, b], text: 'Tests run with `npm test`' }], drop: [] }))],
      ['facts', 'consolidate', '--apply'],
    );
    assert.equal(repaired.code, 0, repaired.stderr);
    assert.match(repaired.stdout, new RegExp(`^Facts: 3 → 2\\n  merged ${a}, ${b} → ${a}: Tests run with \`npm test\`\\n[\\s\\S]*Kept\\.`));
    const [first, repair] = kit.server!.chatRequests();
    assert.equal(kit.server!.chatRequests().length, 2);
    const said = String(repair.messages.at(-1).content);
    assert.match(said, /That answer was rejected:\n- facts\.0\.from: .*\n- drop: /);
    assert.equal(repair.messages.at(-2).role, 'assistant', 'the rejected answer is in the conversation');
    assert.equal(first.messages.length, 2);
    assert.equal((await facts('undo')).code, 0);

    // Twice wrong (no JSON, then an id that is no fact): exit 1 naming what was wrong, every fact as it was.
    const bad = await tandem([text('I would merge the two test facts.'), text(JSON.stringify({ facts: [{ from: ['fnothere'], text: 'x' }], drop: [] }))], ['facts', 'consolidate', '--apply']);
    assert.equal(bad.code, 1);
    assert.equal(kit.server!.chatRequests().length, 2, 'one repair, no more');
    assert.match(bad.stderr, /the summary model \(.+\) gave no valid consolidation after 1 repair: the answer names fnothere, which is not one of the facts\. Nothing was replaced: the 3 facts are as they were/);
    assert.equal(bad.stdout, '');
    assert.deepEqual((await facts('list', '--json')).stdout.trim().split('\n').map((l) => JSON.parse(l).fact.id).sort(), Object.values(ids).sort());
  });

  it('a global fact (`facts add --global`) is kept outside every workspace, listed as its own group and sent in every workspace; one citing a file is refused', async () => {
    const GLOBAL = 'Prefer pnpm over npm in every project';
    const add = await facts('add', '--global', GLOBAL);
    assert.equal(add.code, 0, add.stderr);
    const id = /Added global fact (f[0-9a-f]{8}): /.exec(add.stdout)?.[1];
    assert.ok(id, add.stdout);
    // In the data folder itself, beside (not inside) any workspace's folder; nothing in the workspace.
    const kept = JSON.parse(fs.readFileSync(path.join(data, 'facts.json'), 'utf8'));
    assert.deepEqual(kept.facts.map((f: any) => [f.id, f.text, f.global]), [[id, GLOBAL, true]]);
    const inWorkspace = (fs.readdirSync(kit.ws, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(kit.ws, f)).isFile() && fs.readFileSync(path.join(kit.ws, f), 'utf8').includes('pnpm'));
    assert.deepEqual(inWorkspace, [], 'nothing written in the workspace');
    // Lines belong to one workspace: a global fact citing a file is refused, and says why.
    const cited = await facts('add', '--global', 'The app is Flask', '--cite', 'src/app.py:1-3');
    assert.equal(cited.code, 1);
    assert.match(cited.stderr, /fact not added: a global fact cannot cite files: lines belong to one workspace/);
    assert.equal((await facts('add', '--global', 'x', '--cite', 'src/app.py:1-1')).code, 1);

    // Another workspace lists it in its own group and is sent it; so is this one, beside its own fact.
    assert.equal((await review(flaskFact)).code, 0);
    const b = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-facts-b-')));
    try {
      const listB = await runCliProcess(kit.cli, ['facts', 'list', '--workspace', b], { env: { TANDEM_DATA_DIR: data } });
      assert.equal(listB.code, 0, listB.stderr);
      assert.match(listB.stdout, new RegExp(`^No facts for this workspace\\.\\n\\nGlobal facts \\(yours, sent in every workspace\\):\\n${id} +today  ${GLOBAL}\\n {4}— from your own note \\(yours\\)\\n$`));
      const server = await ScriptedServer.start([text('ok')]);
      try {
        const runB = await runCliProcess(kit.cli, ['run', '--workspace', b, '--base-url', server.url, 'Set up the build'], { env: { TANDEM_DATA_DIR: data, TANDEM_API_KEY: 'sk-x', TANDEM_MAX_RETRIES: '0' } });
        assert.equal(runB.code, 0, runB.stderr);
        const system = systemOf(server.chatRequests()[0]);
        assert.ok(system.includes(`- ${GLOBAL} [your own note]`), system);
        assert.doesNotMatch(system, /Flask, not FastAPI/, "workspace A's own fact stays in A");
      } finally {
        await server.close();
      }
      const runA = await tandem([text('ok')], ['run', 'Add a route to src/app.py']);
      assert.equal(runA.code, 0, runA.stderr);
      const systemA = systemOf(kit.server!.chatRequests()[0]);
      assert.ok(systemA.includes(`- ${FACT} [src/app.py:1-3]`) && systemA.includes(`- ${GLOBAL} [your own note]`), systemA);
      // Forgotten from workspace B: gone everywhere.
      const rm = await runCliProcess(kit.cli, ['facts', 'rm', id!, '--workspace', b], { env: { TANDEM_DATA_DIR: data } });
      assert.equal(rm.code, 0, rm.stderr);
      assert.doesNotMatch((await facts('list')).stdout, /pnpm|Global facts/);
    } finally {
      fs.rmSync(b, { recursive: true, force: true });
    }
  });

  it('a corrupt facts file is kept aside and reported, never lost silently', async () => {
    assert.equal((await review(flaskFact)).code, 0);
    const dir = path.join(data, 'workspaces');
    const [folder] = fs.readdirSync(dir);
    const file = path.join(dir, folder!, 'facts.json');
    fs.writeFileSync(file, '{"version": 1, "facts": [{"id": ');
    const list = await facts('list');
    assert.equal(list.code, 0);
    assert.match(list.stderr, /The facts file could not be read \(.*\); it was kept as .*facts\.json\.corrupt-\d+ and facts start empty/);
    const kept = fs.readdirSync(path.join(dir, folder!)).filter((n) => n.startsWith('facts.json.corrupt-'));
    assert.equal(kept.length, 1);
    assert.equal(fs.readFileSync(path.join(dir, folder!, kept[0]!), 'utf8'), '{"version": 1, "facts": [{"id": ');
  });
});
