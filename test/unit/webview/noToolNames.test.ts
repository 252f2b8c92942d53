/**
 * The webview names no tool: how a card reads, groups and folds comes from the display its tool
 * declared (src/protocol/toolDisplay.ts), so a new tool or an MCP tool needs no webview change.
 * This takes every tool name from the product's registry and fails on any of them written in
 * webview-ui/src as a string literal (or an object key, like `read_file: 'read'`). Comments may
 * mention tools.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import ts from 'typescript';
import { productTools } from '../tools/toolSamples';
import { repoRoot } from './loadWebviewModule';

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|tsx|mts|js|jsx|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** `file:line: 'name'` for each tool name written as a literal or an object key under `dir`. */
export function toolNameLiterals(dir: string, names: ReadonlySet<string>): string[] {
  const hits: string[] = [];
  for (const file of sourceFiles(dir)) {
    const text = fs.readFileSync(file, 'utf8');
    const kind = file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    const visit = (node: ts.Node): void => {
      let value: string | undefined;
      if (ts.isStringLiteralLike(node)) value = node.text;
      else if (ts.isIdentifier(node) && (ts.isPropertyAssignment(node.parent) || ts.isPropertySignature(node.parent)) && node.parent.name === node) value = node.text;
      else if (ts.isTemplateExpression(node)) {
        // `${server}__read_file` or `read_file ${x}`: any literal part that is a tool name on its own.
        for (const part of [node.head.text, ...node.templateSpans.map((s) => s.literal.text)]) {
          for (const word of part.split(/[^A-Za-z0-9_]+|__/)) if (names.has(word)) hits.push(`${path.relative(dir, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${word}`);
        }
      } else if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        for (const word of node.getText().split(/[^A-Za-z0-9_]+|__/)) if (names.has(word)) hits.push(`${path.relative(dir, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${word}`);
      }
      if (value !== undefined && names.has(value)) hits.push(`${path.relative(dir, file)}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${value}`);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return hits;
}

describe('the webview names no tool', () => {
  const names = new Set(productTools().map((t) => t.name));
  const webview = path.join(repoRoot, 'webview-ui', 'src');

  it('takes the names from the product registry', () => {
    for (const n of ['read_file', 'search', 'run_command', 'propose_plan', 'ask_question', 'load_skill', 'find_symbol']) assert.ok(names.has(n), n);
  });

  it('no tool name is written in webview-ui/src', () => {
    assert.deepEqual(toolNameLiterals(webview, names), []);
  });

  it('fails on a tool name planted in a copy of webview-ui/src (a literal, a key, a regex, a template)', () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-webview-names-'));
    try {
      fs.cpSync(webview, copy, { recursive: true });
      fs.mkdirSync(path.join(copy, 'planted'));
      fs.writeFileSync(path.join(copy, 'planted', 'byName.tsx'), [
        "// read_file in a comment is fine",
        "export const isRead = (card: { tool: string }) => card.tool === 'read_file';",
        'export const groups = { list_files: 1 };',
        'export const mcp = /^search$/;',
        'export const t = (s: string) => `${s}__propose_plan`;',
        'export const fine = "read_file_backup";',
      ].join('\n'));
      assert.deepEqual(toolNameLiterals(copy, names).sort(), [
        `${path.join('planted', 'byName.tsx')}:2: read_file`,
        `${path.join('planted', 'byName.tsx')}:3: list_files`,
        `${path.join('planted', 'byName.tsx')}:4: search`,
        `${path.join('planted', 'byName.tsx')}:5: propose_plan`,
      ]);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
