/**
 * Text from the model (or from files and commands it saw) shown on a terminal. Control characters
 * are made visible instead of being sent to the terminal: otherwise a command proposed for
 * approval as `rm -rf ~ #\r\x1b[2Kecho hello` shows as "echo hello" (carriage return + erase line)
 * while bash runs `rm -rf ~`, and escape sequences can set the clipboard (OSC 52), retitle or
 * repaint the terminal. Bidi overrides ("Trojan Source") reorder what is shown, so they are made
 * visible too. Newlines and tabs stay; CRLF becomes a plain newline.
 */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function visibleControls(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROLS, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
