import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { tandem } from './support/tandem';
import { waitFor } from '../support/wait';

describe('the Tandem chat view', () => {
  it('resolves when its activity-bar container is opened, with a strict CSP and only local resources', async () => {
    const { api } = await tandem();
    let html: string | undefined;
    const sub = api.chatView.onDidResolve((view) => { html = view.webview.html; });
    try {
      await vscode.commands.executeCommand('workbench.view.extension.tandem');
      await waitFor(() => api.chatView.isResolved, 'the chat view to resolve', 20_000);
      // It may have resolved before we subscribed (the container was already open): reveal again then.
      html ??= await new Promise<string>((resolve) => {
        const s = api.chatView.onDidResolve((v) => { s.dispose(); resolve(v.webview.html); });
        void vscode.commands.executeCommand('workbench.action.closeSidebar')
          .then(() => vscode.commands.executeCommand('workbench.view.extension.tandem'));
      });
    } finally {
      sub.dispose();
    }
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1]?.replace(/&quot;/g, '"').replace(/&amp;/g, '&');
    assert.ok(csp, 'the page has no Content-Security-Policy');
    assert.match(csp, /default-src 'none'/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce, `scripts are not nonce-gated: ${csp}`);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:\/\/(?!\S*vscode)/, `CSP allows too much: ${csp}`);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.ok(scripts.length > 0, 'no script tag');
    for (const [, attrs, body] of scripts) {
      assert.ok(attrs.includes(`nonce="${nonce}"`), `script without the nonce: ${attrs}`);
      assert.strictEqual(body.trim(), '', 'inline script body');
      assert.match(attrs, /src="[^"]*dist\/webview\.js"/);
    }
    assert.doesNotMatch(html, /\b(src|href)="https?:\/\/(?![^"]*vscode-(cdn|resource))/, 'loads something from a remote origin');
  });
});
