/**
 * "No new errors in the editor's problems of the files a step touched" as step evidence, through
 * the whole Agent with real files. The editor's language services are played by a provider that
 * reads the real file and reports an error per line calling `undefinedName` (what the TypeScript
 * server would say), since only an editor host has problems to report.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { harness, type Harness } from '../../support/agentHarness';
import type { Diagnostic, DiagnosticsProvider } from '../../../src/core/ports/ports';
import { call, text } from '../../support/scriptSteps';

/** Reports "Cannot find name 'undefinedName'" on each line that uses it, like a language server would. */
const languageService: DiagnosticsProvider = {
  async get(abs?: string): Promise<Diagnostic[]> {
    if (!abs || !fs.existsSync(abs)) return [];
    return fs.readFileSync(abs, 'utf8').split('\n').flatMap((l, i) =>
      l.includes('undefinedName') ? [{ path: abs, line: i + 1, severity: 'error' as const, message: "Cannot find name 'undefinedName'.", source: 'ts' }] : []);
  },
};

function plan() {
  return {
    format_version: '1.0', goal: 'Export answer', estimated_total_time: '1m', risks: [], prerequisites: [],
    steps: [{ step_number: 1, action: 'Export answer from src/a.ts', reason: 'x', tools_needed: ['write_file'], estimated_time: '1m', files: ['src/a.ts'], commands: [], check: 'grep -q answer src/a.ts' }],
  };
}

describe("step evidence: the editor's problems of the files a step touched", () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  async function run(content: string, before = 'const old = undefinedName;\n') {
    h = await harness({ files: { 'src/a.ts': before }, approver: { request: async () => ({ approved: true }) }, diagnostics: languageService, steps: [
      call('read_file', { path: 'src/a.ts' }),
      call('write_file', { path: 'src/a.ts', content }),
      text('Done.'),
    ] });
    const record = await h.agent.planning.importPlan(JSON.stringify(plan()), 'plan.json');
    await h.agent.act({ type: 'execute_plan', card_id: record.cardId });
    return h.cardsOf('plan')[0]!;
  }

  it('a new error in a file the step changed keeps the step from done, even though its check passed', async () => {
    const card = await run('const old = undefinedName;\nexport const answer = undefinedName + 1;\n');
    assert.equal(card.step_states['1'], 'unverified');
    assert.deepEqual(card.step_evidence?.['1']?.why, ["new error in the editor's problems: src/a.ts:2: Cannot find name 'undefinedName'. [ts]"]);
    assert.equal(card.step_evidence?.['1']?.check?.exit_code, 0);
  });

  it('an error the file already had (moved to another line) is not new: the step is done', async () => {
    const card = await run('export const answer = 42;\nconst old = undefinedName;\n');
    assert.equal(card.step_states['1'], 'done', JSON.stringify(card.step_evidence));
  });
});
