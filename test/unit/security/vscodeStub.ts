/**
 * The few `vscode` APIs the panel-facing host classes touch at load and in these tests
 * (EventEmitter, Disposable, configuration reads), so AgentSession, PanelApprover and
 * PanelQuestionAsker run in plain Node. Everything else is absent on purpose: a test that reaches
 * further fails loudly instead of passing on a fake.
 */
import Module from 'node:module';
import * as path from 'node:path';

class EventEmitter<T> {
  private listeners: ((e: T) => void)[] = [];
  event = (l: (e: T) => void) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

class Disposable {
  constructor(private readonly fn: () => void) {}
  static from(...d: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => d.forEach((x) => x.dispose()));
  }
  dispose(): void {
    this.fn();
  }
}

const configuration = {
  get: (_key: string, dflt?: unknown) => dflt,
  inspect: () => undefined,
  has: () => false,
  update: async () => {},
};

/** Just enough of `vscode.Uri` for path joins on file URIs. */
class Uri {
  private constructor(readonly fsPath: string) {}
  static file(p: string): Uri {
    return new Uri(path.resolve(p));
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(path.join(base.fsPath, ...parts));
  }
  get path(): string {
    return this.fsPath;
  }
  toString(): string {
    return `file://${this.fsPath}`;
  }
}

export const vscodeStub = {
  Uri,
  EventEmitter,
  Disposable,
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  workspace: { getConfiguration: () => configuration, onDidChangeConfiguration: () => ({ dispose() {} }) },
  window: {},
};

let installed = false;
/** Makes `require('vscode')` return the stub (idempotent). */
export function installVscodeStub(): void {
  if (installed) return;
  installed = true;
  const mod = Module as unknown as { _load(request: string, parent: unknown, isMain: boolean): unknown };
  const original = mod._load;
  mod._load = function (request: string, parent: unknown, isMain: boolean) {
    if (request === 'vscode') return vscodeStub;
    return original.call(this, request, parent, isMain);
  };
}
