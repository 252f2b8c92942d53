/** Terminal output (escape sequences, carriage returns) turned into the plain text the model and the chat see. */

// CSI (colours, cursor moves), OSC (titles, shell-integration marks) and other two-byte escapes.
const ESCAPES = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Terminal output as plain text: escapes removed, CRLF → LF, and a carriage return (progress bars) keeps only what was drawn last. */
export function terminalToText(raw: string): string {
  const noEsc = raw.replace(/\r\n/g, '\n').replace(ESCAPES, (m) => (m === '\r' ? m : ''));
  if (!noEsc.includes('\r')) return noEsc;
  return noEsc.split('\n').map((line) => {
    const parts = line.split('\r');
    // "50%\r100%" shows "100%"; a trailing \r (before \n) keeps the previous text.
    for (let i = parts.length - 1; i >= 0; i--) if (parts[i]) return parts[i];
    return '';
  }).join('\n');
}
