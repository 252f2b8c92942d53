/**
 * What a tool card shows of a command, its cwd and the paths it touches must be what will run or be
 * written: a carriage return, an escape sequence or a bidi override (U+202A–U+202E, U+2066–U+2069)
 * can make `rm -f x #\recho hello` read as `echo hello` in the approval card. The same rule the CLI
 * uses (src/protocol/visibleControls.ts, shared by the CLI and the webview) makes them visible as
 * `\xNN` / `\uNNNN`.
 */
import { visibleControls } from '../../../src/protocol/visibleControls';

/** For a `<pre>`: newlines and tabs are shown as such (they are real line breaks for bash too). */
export function visibleBlock(text: string): string {
  return visibleControls(text);
}

/**
 * For one line of inline text (a cwd, a path, a card summary): HTML folds a newline into a space,
 * so a newline or tab in a path would pass unseen; they are escaped like the other controls.
 */
export function visibleLine(text: string): string {
  return visibleControls(text).replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}
