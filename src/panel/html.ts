import { randomBytes } from 'node:crypto';

/** A fresh nonce per page load: only our script tag carries it, so no other script can run. */
export function makeNonce(): string {
  return randomBytes(18).toString('base64');
}

export interface ChatHtmlParts {
  /** `webview.cspSource`: the only origin styles, fonts and images may come from. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  /** Omitted when the webview bundle has no stylesheet. */
  styleUris: string[];
}

/** The Content-Security-Policy: nothing by default, no inline script, no remote origins. */
export function chatCsp({ cspSource, nonce }: Pick<ChatHtmlParts, 'cspSource' | 'nonce'>): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${cspSource}`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The chat page: one root element, the bundle's stylesheet(s), the bundle as a nonce'd module. */
export function chatHtml(parts: ChatHtmlParts): string {
  const styles = parts.styleUris.map((u) => `<link rel="stylesheet" href="${escapeAttr(u)}">`).join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta http-equiv="Content-Security-Policy" content="${escapeAttr(chatCsp(parts))}">
    <meta name="viewport" content="width=device-width, initial-scale=1.0">
    ${styles}
    <title>Tandem</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" nonce="${escapeAttr(parts.nonce)}" src="${escapeAttr(parts.scriptUri)}"></script>
  </body>
</html>`;
}
