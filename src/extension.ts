import * as vscode from 'vscode';

// Composition root: wires the pieces, nothing else. (Filled in by the foundation work.)
export function activate(context: vscode.ExtensionContext): void {
  void context;
}

export function deactivate(): void {}
