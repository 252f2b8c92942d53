/**
 * Decides whether a shell command is covered by the user's allow-list. A word prefix alone is not
 * enough: allowing `git show` must not allow `git show > ~/.ssh/x` or `git show; rm -rf /`.
 *
 * The command is parsed with `shell-quote`; every simple command of a chain (`&&`, `||`, `;`, `|`,
 * `&`, newlines) must start with the words of an allow-list entry. Constructs whose effect a word
 * prefix cannot describe — redirections, command/process substitution, backticks, subshells,
 * here-docs, comments (shell-quote and bash disagree on where they start) — are reported as risks:
 * such a command always needs an explicit approval, whatever the allow-list says.
 *
 * Used by the loop's approval policy; `run_command` itself always asks through `ctx.approve`.
 */
import { parse, quote, type ParseEntry } from 'shell-quote';

export interface CommandAnalysis {
  /** Each simple command, as its words joined by spaces. */
  segments: string[];
  /** Segments no allow-list entry covers. */
  unmatched: string[];
  /** Constructs that need an explicit approval whatever the allow-list says. */
  risks: string[];
  /** True only when there is at least one segment, all are covered, and there are no risks. */
  allowListed: boolean;
}

const SEPARATORS = new Set(['&&', '||', ';', ';;', '|', '|&', '&']);
const REDIRECTS = new Set(['>', '>>', '<', '<<', '<<<', '>&', '<&', '>|', '&>', '&>>']);

/**
 * Finds substitutions the way bash sees them (quote-aware: `'$(x)'` is literal, `"$(x)"` is not)
 * and rewrites unquoted newlines as `;` (shell-quote would silently join the lines into one command).
 */
function scan(command: string): { normalized: string; risks: string[] } {
  const risks = new Set<string>();
  let out = '';
  let state: 'plain' | 'single' | 'double' = 'plain';
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    const next = command[i + 1];
    if (state === 'single') {
      if (c === "'") state = 'plain';
      out += c;
      continue;
    }
    if (c === '\\') {
      // A backslash-newline is a line continuation, not a separator.
      out += c + (next ?? '');
      i++;
      continue;
    }
    if (c === '`') risks.add('command substitution (backticks)');
    if (c === '$' && next === '(') risks.add('command substitution $(…)');
    if (c === '$' && next === '{') risks.add('parameter expansion ${…}');
    if (state === 'double') {
      if (c === '"') state = 'plain';
      out += c;
      continue;
    }
    if ((c === '<' || c === '>') && next === '(') risks.add('process substitution');
    if (c === "'") state = 'single';
    else if (c === '"') state = 'double';
    if (c === '\n' || c === '\r') {
      out += ';';
      continue;
    }
    out += c;
  }
  if (state !== 'plain') risks.add('unterminated quote');
  return { normalized: out, risks: [...risks] };
}

function isHarmlessRedirect(op: string, target: ParseEntry | undefined): boolean {
  if (typeof target !== 'string') return false;
  // `2>&1`, `>&2`, `<&-`: duplicating or closing descriptors writes no file.
  if ((op === '>&' || op === '<&') && /^(\d+|-)$/.test(target)) return true;
  // Discarding output touches nothing.
  return (op === '>' || op === '>>' || op === '&>') && target === '/dev/null';
}

function words(entry: string): string[] {
  return parse(entry).filter((t): t is string => typeof t === 'string');
}

function covered(segment: string[], allowList: readonly string[]): boolean {
  return allowList.some((entry) => {
    const w = words(entry);
    return w.length > 0 && w.length <= segment.length && w.every((x, i) => segment[i] === x);
  });
}

export function analyzeCommand(command: string, allowList: readonly string[]): CommandAnalysis {
  const { segments, risks: riskList } = parseCommand(command);
  const texts = segments.map((s) => s.join(' '));
  const unmatched = segments.filter((s) => !covered(s, allowList)).map((s) => s.join(' '));
  return { segments: texts, unmatched, risks: riskList, allowListed: segments.length > 0 && unmatched.length === 0 && riskList.length === 0 };
}

/**
 * The allow-list entries "Always allow" adds for `command`: each simple command's words as the
 * parser read them, quoted so they parse back to the same words — an entry covers that command
 * and the same command with more arguments, never a chain, redirection or substitution around it
 * (those are checked on every run, whatever the list holds). None when the command has such a
 * construct: no entry could ever let it run without asking.
 */
export function allowListEntries(command: string): { entries: string[] } | { refused: string } {
  const { segments, risks } = parseCommand(command);
  if (risks.length > 0) return { refused: `it has ${risks.join(', ')}, which always needs your approval` };
  if (segments.length === 0) return { refused: 'there is no command in it' };
  return { entries: [...new Set(segments.map((words) => quote(words)))] };
}

/** A command's simple commands (each as its words) and the constructs a word prefix cannot describe. */
export function parseCommand(command: string): { segments: string[][]; risks: string[] } {
  const { normalized, risks } = scan(command);
  const riskSet = new Set(risks);
  let tokens: ParseEntry[];
  try {
    // Keep `$VAR` literal instead of expanding it from our own environment.
    tokens = parse(normalized, (key: string) => `$${key}`);
  } catch {
    return { segments: [[command]], risks: [...riskSet, 'unparsable command'] };
  }

  const segments: string[][] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) segments.push(current);
    current = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (typeof t === 'string') {
      current.push(t);
      continue;
    }
    if ('comment' in t) {
      riskSet.add('comment (bash and the parser may disagree on where it starts)');
      continue;
    }
    if (!('op' in t)) continue;
    if (t.op === 'glob') {
      current.push((t as { pattern: string }).pattern);
      continue;
    }
    if (SEPARATORS.has(t.op)) {
      if (t.op === '&') riskSet.add('background process (&)');
      flush();
    } else if (REDIRECTS.has(t.op)) {
      const target = tokens[i + 1];
      if (!isHarmlessRedirect(t.op, target)) riskSet.add(`redirection ${t.op}`);
      // Drop the descriptor number that shell-quote leaves as a word (`2>` → "2", ">").
      if (/^\d+$/.test(current[current.length - 1] ?? '')) current.pop();
      i++; // the target is not an argument of the command
    } else if (t.op === '(' || t.op === ')') {
      riskSet.add('subshell ( … )');
      flush();
    } else if (t.op === '<(' || t.op === '>(') {
      riskSet.add('process substitution');
      flush();
    } else {
      riskSet.add(`shell operator ${t.op}`);
      flush();
    }
  }
  flush();
  return { segments, risks: [...riskSet] };
}
