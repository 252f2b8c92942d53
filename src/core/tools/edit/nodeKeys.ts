/**
 * What identifies a node among its siblings when a lazy text is read against the original: its
 * text (whitespace aside), else its name — a function's, class's or method's name, an object
 * key, an assignment's target, a call's callee and first string argument (a test's
 * `it('does x', …)`), an import's source — else how alike its tokens are.
 */
import { namedKids, type SyntaxNode } from '../../syntax/parsedTree';

export function textKey(n: SyntaxNode): string {
  return `${n.type}\u0000${n.text.replace(/\s+/g, ' ').trim()}`;
}

const STRINGS = /string/;

function nameOf(n: SyntaxNode): string | undefined {
  const field = (f: string) => n.childForFieldName(f);
  switch (n.type) {
    case 'export_statement': {
      const d = field('declaration') ?? namedKids(n)[0];
      return d ? `export ${d.type} ${nameOf(d) ?? ''}` : undefined;
    }
    case 'decorated_definition': {
      const d = field('definition');
      return d ? `${d.type} ${nameOf(d) ?? ''}` : undefined;
    }
    case 'lexical_declaration':
    case 'variable_declaration': {
      const d = namedKids(n).find((c) => c.type === 'variable_declarator');
      return d?.childForFieldName('name')?.text;
    }
    case 'expression_statement': {
      const e = namedKids(n)[0];
      return e ? `${e.type} ${nameOf(e) ?? ''}` : undefined;
    }
    case 'assignment_expression':
    case 'assignment':
    case 'augmented_assignment':
      return field('left')?.text;
    case 'call_expression':
    case 'call': {
      const args = field('arguments');
      const first = args ? namedKids(args)[0] : undefined;
      return `${field('function')?.text ?? ''}(${first && STRINGS.test(first.type) ? first.text : ''})`;
    }
    case 'await_expression':
      return namedKids(n)[0] ? nameOf(namedKids(n)[0]!) : undefined;
    case 'pair':
      return field('key')?.text;
    case 'import_statement':
    case 'import_declaration':
      // Go's grouped `import ( … )` names no one module: it is told apart by what it holds (likeness).
      if (namedKids(n).some((c) => c.type === 'import_spec_list')) return undefined;
      return (field('source') ?? n).text;
    case 'import_from_statement':
      return field('module_name')?.text;
    case 'jsx_element':
      return field('open_tag')?.childForFieldName('name')?.text;
    default:
      return field('name')?.text;
  }
}

/** An assignment (as a statement or not): its target may well be assigned again in the same body. */
function repeatable(n: SyntaxNode): boolean {
  const inner = n.type === 'expression_statement' ? namedKids(n)[0] : n;
  return inner !== undefined && /^(augmented_)?assignment(_expression)?$/.test(inner.type);
}

/**
 * The node's kind and name, or undefined for a node that has no name. In a body of statements
 * (`inBody`) an assignment's target is no name: the same variable is assigned again and again.
 */
export function nameKey(n: SyntaxNode, inBody = false): string | undefined {
  if (inBody && repeatable(n)) return undefined;
  // A Python definition is the same definition with its decorators or without (a text may leave them to a marker).
  if (n.type === 'decorated_definition') {
    const d = n.childForFieldName('definition');
    return d ? nameKey(d, inBody) : undefined;
  }
  const name = nameOf(n);
  return name === undefined || name.trim() === '' ? undefined : `${n.type}\u0000${name}`;
}

const tokens = (s: string) => new Set(s.match(/[A-Za-z0-9_]+|[^\sA-Za-z0-9_]/g) ?? []);

/** Dice overlap of the two nodes' token sets, 0 for nodes of different kinds. */
export function likeness(a: SyntaxNode, b: SyntaxNode): number {
  if (a.type !== b.type) return 0;
  const x = tokens(a.text);
  const y = tokens(b.text);
  if (x.size + y.size === 0) return 1;
  let common = 0;
  for (const t of x) if (y.has(t)) common++;
  return (2 * common) / (x.size + y.size);
}

/** Edit distance of two short strings (names). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/** Two nodes of one kind whose names differ by a slip of spelling (at most two edits, and a small share of the name). */
export function nearNames(a: SyntaxNode, b: SyntaxNode): boolean {
  if (a.type !== b.type) return false;
  const x = nameOf(a);
  const y = nameOf(b);
  if (!x || !y || x === y || Math.abs(x.length - y.length) > 2 || x.length > 200) return false;
  const d = distance(x, y);
  return d <= 2 && d <= Math.max(x.length, y.length) * 0.15;
}

/** The share of the tokens `a` writes out (its comment lines aside: markers) that `b` has too. */
export function contained(a: SyntaxNode, b: SyntaxNode): number {
  const written = a.text.split('\n').filter((l) => !/^\s*(\/\/|#|\/\*|\*|\{\/\*)/.test(l)).join('\n');
  const x = tokens(written);
  if (x.size === 0) return 0;
  const y = tokens(b.text);
  let common = 0;
  for (const t of x) if (y.has(t)) common++;
  return common / x.size;
}
