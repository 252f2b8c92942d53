import assert from 'node:assert/strict';
import * as M from '../../../src/host/vscode/suggestModels';
const ROLES = ['planner', 'actor', 'reviewer'];

describe('setup card: the first suggestion of a model per role', () => {

  it('does not give every role the first model listed: the largest plans and reviews, a coder acts', () => {
    const s = M.suggestModels(['llama3.2:3b', 'qwen2.5-coder:7b', 'llama3.3:70b', 'nomic-embed-text'], ROLES);
    assert.deepEqual(s, { planner: 'llama3.3:70b', actor: 'qwen2.5-coder:7b', reviewer: 'llama3.3:70b' });
  });

  it('by name when no size is given; never an embedding or speech model', () => {
    const s = M.suggestModels(['text-embedding-3-large', 'gpt-4o-mini', 'gpt-4o', 'whisper-1'], ROLES);
    assert.deepEqual(s, { planner: 'gpt-4o', actor: 'gpt-4o', reviewer: 'gpt-4o' });
  });

  it('one model: everyone gets it; none: no suggestion', () => {
    assert.deepEqual(M.suggestModels(['scripted-model'], ROLES), { planner: 'scripted-model', actor: 'scripted-model', reviewer: 'scripted-model' });
    assert.deepEqual(M.suggestModels([], ROLES), {});
  });
});
