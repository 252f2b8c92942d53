import type * as vscode from 'vscode';
import type { DiffApprover } from './diffApprover';
import type { PanelQuestionAsker } from './questionAsker';
import type { ApiKeyStore } from './secrets';

/**
 * What `activate()` returns **only in extension test mode** (ExtensionMode.Test), so integration
 * tests can reach the real SecretStorage and the live approver. In normal use the extension exports
 * nothing: another extension must not be able to read our secrets through our exports.
 */
export interface TandemTestApi {
  secrets: vscode.SecretStorage;
  keys: ApiKeyStore;
  approver: DiffApprover;
  asker: PanelQuestionAsker;
}
