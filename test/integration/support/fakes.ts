/**
 * Stand-ins for the parts of VS Code the integration suites do not test, in one place. The model's
 * turns are scripted with test/support/scriptSteps.ts against test/support/scriptedServer.ts.
 */
import * as vscode from 'vscode';

/** SecretStorage in memory: these suites exercise the session, not the keychain (secrets have their own test). */
export class MemorySecrets implements vscode.SecretStorage {
  private readonly m = new Map<string, string>();
  private readonly e = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
  onDidChange = this.e.event;
  async get(k: string) { return this.m.get(k); }
  async store(k: string, v: string) { this.m.set(k, v); this.e.fire({ key: k }); }
  async delete(k: string) { this.m.delete(k); this.e.fire({ key: k }); }
  async keys() { return [...this.m.keys()]; }
}
