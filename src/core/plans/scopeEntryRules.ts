/**
 * What a plan step may declare as its scope, judged entry by entry and without the file system:
 * - a `files` entry is a workspace-relative path, folder or glob: never absolute (`/etc/x`, `C:\x`,
 *   `~/x`, `\\server\x`), never with a `..` segment (a glob such as `src/../../**` escapes however it
 *   is matched), never empty;
 * - a `commands` entry or `check` is one command line: not empty, one line, no leading `$ ` prompt,
 *   and not a sentence ("Run the tests", "Verify that it builds") that a shell would reject.
 * Why lexical rules besides the resolved-path check: a glob is not a path that can be resolved, and
 * a scope approved now is matched later, so it must not be able to name anything outside.
 * Each problem is a phrase that follows "step N: " in the validation errors the model repairs from.
 */

export function fileEntryProblem(entry: string): string | undefined {
  const f = entry.trim();
  if (f === '') return 'files has an empty entry';
  const shown = `'${entry.slice(0, 200)}'`;
  if (/^([\\/]|~|[A-Za-z]:)/.test(f)) return `file ${shown} is an absolute path; name it relative to the workspace`;
  if (f.split(/[\\/]+/).includes('..')) return `file ${shown} goes up with '..' and is outside the workspace`;
  return undefined;
}

/** `what` names the field in the message: "commands[1]" or "check". */
export function commandEntryProblem(entry: string, what: string): string | undefined {
  const c = entry.trim();
  if (c === '') return `${what} is empty; give a command line or leave it out`;
  const shown = `'${entry.slice(0, 120)}'`;
  if (/[\r\n]/.test(c)) return `${what} ${shown} spans several lines; give one command line (join commands with &&)`;
  if (/^\$\s/.test(c)) return `${what} ${shown} starts with a '$ ' prompt; give the command line alone`;
  if (looksLikeProse(c)) return `${what} ${shown} reads as a sentence, not a command line; give the exact command (e.g. 'npm test')`;
  return undefined;
}

/**
 * A capitalised word followed by ordinary lower-case words and nothing a command line carries
 * (no option, path, quote or operator): "Run the tests", "Verify that the build passes.". Real
 * programs rarely start with a capital, and one that does has arguments that look like arguments.
 */
function looksLikeProse(c: string): boolean {
  const words = c.replace(/[.!]$/, '').split(/\s+/);
  if (words.length < 2) return false;
  if (!/^[A-Z][a-z]+$/.test(words[0]!)) return false;
  return words.slice(1).every((w) => /^[a-z][a-z',]*$/.test(w) || /^[A-Za-z]+$/.test(w));
}
