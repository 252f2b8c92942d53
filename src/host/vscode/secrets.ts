import * as vscode from 'vscode';

/** Where the API key lives: VS Code's SecretStorage (OS keychain), never settings, logs or history. */
export const API_KEY_SECRET = 'tandem.apiKey';

export class ApiKeyStore {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the key is set or removed (here or from another window). */
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.sub = secrets.onDidChange((e) => { if (e.key === API_KEY_SECRET) this.changed.fire(); });
  }

  async get(): Promise<string> {
    return (await this.secrets.get(API_KEY_SECRET)) ?? '';
  }

  async set(key: string): Promise<void> {
    const trimmed = key.trim();
    if (trimmed) await this.secrets.store(API_KEY_SECRET, trimmed);
    else await this.secrets.delete(API_KEY_SECRET);
  }

  async clear(): Promise<void> {
    await this.secrets.delete(API_KEY_SECRET);
  }

  /** The "Set API key" command: a password input box; an empty answer removes the key. */
  async prompt(): Promise<boolean> {
    const value = await vscode.window.showInputBox({
      title: 'Tandem: Set API key',
      prompt: 'The key for your OpenAI-compatible endpoint. Stored in the OS keychain (SecretStorage), never in settings. Leave empty to remove it.',
      password: true,
      ignoreFocusOut: true,
      placeHolder: 'sk-…',
    });
    if (value === undefined) return false;
    await this.set(value);
    void vscode.window.showInformationMessage(value.trim() ? 'Tandem: API key saved.' : 'Tandem: API key removed.');
    return true;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
