// The model's conversation has one writer, its owner module: every other file reads it. A part
// that edits the messages on its own (a push from the checkpoints, a tool result rewritten in the
// loop, a cut for Edit & resend) is how rewind, condensing and history break quietly, so any
// write to something named `messages` or `conversation` outside the owner fails the lint:
//   - a mutating array method on it: push, pop, shift, unshift, splice, sort, reverse, fill, copyWithin
//   - an assignment to its length or to one of its elements, or `delete` of an element
//   - reassigning a `messages` / `conversation` field (`x.messages = …`)
//   - a cast of it to a mutable array type (`conversation as unknown[]`), the way around a read-only view
// Found with the TypeScript parser, so strings and comments that merely contain such words pass.
// A local array that is not the conversation (a one-off request being built) takes another name.
import { readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { sourceFiles } from './sourceFiles.mjs';
import ts from 'typescript';

export const CONVERSATION_OWNER = 'src/core/context/conversation.ts';

const NAMES = /^(messages|conversation)$/;
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);
const CODE = /\.(ts|tsx|mts|cts)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'out']);


/** The expression under parentheses, casts and `!`. */
function strip(e) {
  for (;;) {
    if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isTypeAssertionExpression(e) || ts.isNonNullExpression(e) || ts.isSatisfiesExpression?.(e)) e = e.expression;
    else return e;
  }
}

/** The name an expression is known by (`messages`, `t.messages`, `this.conversation`), if it has one. */
function nameOf(e) {
  const s = strip(e);
  if (ts.isIdentifier(s)) return s.text;
  if (ts.isPropertyAccessExpression(s)) return s.name.text;
  return undefined;
}

const namesConversation = (e) => NAMES.test(nameOf(e) ?? '');

/** `T[]` or `Array<T>` without `readonly`: a type through which the array can be written. */
function mutableArrayType(t) {
  while (ts.isParenthesizedTypeNode(t)) t = t.type;
  if (ts.isArrayTypeNode(t) || ts.isTupleTypeNode(t)) return true;
  if (ts.isTypeReferenceNode(t) && ts.isIdentifier(t.typeName) && t.typeName.text === 'Array') return true;
  return false;
}

const ASSIGNMENTS = new Set([
  ts.SyntaxKind.EqualsToken, ts.SyntaxKind.PlusEqualsToken, ts.SyntaxKind.MinusEqualsToken, ts.SyntaxKind.BarBarEqualsToken,
  ts.SyntaxKind.AmpersandAmpersandEqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken,
]);

/** `line: what` for every write to the conversation in one source text. */
export function conversationWrites(fileName, text) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = [];
  const at = (node, what) => found.push({ line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, what });
  const visit = (node) => {
    if (ts.isCallExpression(node)) {
      const callee = strip(node.expression);
      if (ts.isPropertyAccessExpression(callee) && MUTATORS.has(callee.name.text) && namesConversation(callee.expression)) {
        at(node, `${nameOf(callee.expression)}.${callee.name.text}(…)`);
      }
    }
    if (ts.isBinaryExpression(node) && ASSIGNMENTS.has(node.operatorToken.kind)) {
      const left = strip(node.left);
      if (ts.isPropertyAccessExpression(left) && left.name.text === 'length' && namesConversation(left.expression)) at(node, `${nameOf(left.expression)}.length = …`);
      else if (ts.isElementAccessExpression(left) && namesConversation(left.expression)) at(node, `${nameOf(left.expression)}[…] = …`);
      else if (ts.isPropertyAccessExpression(left) && NAMES.test(left.name.text)) at(node, `reassigns the field ${left.name.text}`);
    }
    if (ts.isDeleteExpression(node)) {
      const target = strip(node.expression);
      if (ts.isElementAccessExpression(target) && namesConversation(target.expression)) at(node, `delete ${nameOf(target.expression)}[…]`);
    }
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && namesConversation(node.expression) && mutableArrayType(node.type)) {
      at(node, `casts ${nameOf(node.expression)} to the mutable ${node.type.getText(sf)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** `file:line: …` for every write to the conversation under `src/` outside its owner. */
export function conversationWriters(root) {
  const files = sourceFiles(root, ['src'], { code: CODE, skipDirs: SKIP_DIRS });
  const problems = [];
  for (const f of files) {
    const rel = relative(root, f).split(sep).join('/');
    if (rel === CONVERSATION_OWNER) continue;
    const text = readFileSync(f, 'utf8');
    if (!/messages|conversation/.test(text)) continue;
    for (const w of conversationWrites(f, text)) {
      problems.push(`${rel}:${w.line}: ${w.what} writes the model's conversation; only ${CONVERSATION_OWNER} may (use its methods)`);
    }
  }
  return { files: files.length, problems };
}
