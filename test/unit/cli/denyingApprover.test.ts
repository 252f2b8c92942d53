import assert from 'node:assert/strict';
import { DenyingApprover } from '../../../src/host/node/denyingApprover';
import { rejectionText } from '../../../src/core/text/rejectionText';

describe('headless fallback approver', () => {
  it('denies as the policy, so the card and the model are not told that a user rejected it', async () => {
    const d = await new DenyingApprover().request();
    assert.equal(d.approved, false);
    const text = rejectionText(d as Extract<typeof d, { approved: false }>, 'this change to a.txt', 'Nothing was changed.');
    assert.doesNotMatch(text, /user rejected/i);
    assert.match(text, /nobody was asked/);
  });
});
