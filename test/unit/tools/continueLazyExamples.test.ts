/**
 * Continue's lazy-apply examples (test/fixtures/continue-lazy, Apache-2.0, see NOTICE there): a
 * model's whole-file rewrite with "// ... existing code ..." for the parts it keeps, sent through
 * the real write_file on a real file. Each outcome is reconstructed (the file is exactly Continue's
 * expected result), refused (an error, the file untouched) or wrong (anything else). Wrong is never
 * allowed; a refusal only for the examples MAY_REFUSE names (continueExamples.ts, with why), so
 * the count reconstructed is held.
 */
import * as assert from 'node:assert/strict';
import { writeFileTool } from '../../../src/core/tools/writeFile';
import { fileName, loadContinueExamples, MAY_REFUSE, sameFile } from './continueExamples';
import { makeHarness } from './toolHarness';

describe("Continue's lazy-apply examples through write_file", () => {
  const examples = loadContinueExamples();

  it('has the 21 vendored examples', () => {
    assert.equal(examples.length, 21);
  });

  for (const ex of examples) {
    it(`${ex.name}: reconstructed${MAY_REFUSE.has(ex.name) ? ' or refused' : ''}, never wrong`, async () => {
      const h = makeHarness();
      try {
        const file = fileName(ex.name);
        const abs = h.write(file, ex.original);
        h.reads.record(abs, ex.original);
        const r = await h.call(writeFileTool, { path: file, content: ex.lazy });
        const after = h.read(file);
        const outcome = !r.isError && sameFile(after, ex.expected) ? 'reconstructed' : r.isError && after === ex.original ? 'refused' : 'wrong';
        assert.notEqual(outcome, 'wrong', `${r.content}\n--- written:\n${after}`);
        if (!MAY_REFUSE.has(ex.name)) assert.equal(outcome, 'reconstructed', r.content);
      } finally {
        h.cleanup();
      }
    });
  }
});
