import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CodeIntelligence, CodeLocation, CodePosition } from '../../../src/core/ports/codeIntelligence';
import { documentOutlineTool } from '../../../src/core/tools/documentOutline';
import { findReferencesTool } from '../../../src/core/tools/findReferences';
import { findSymbolTool } from '../../../src/core/tools/findSymbol';
import { goToDefinitionTool } from '../../../src/core/tools/goToDefinition';
import { hoverTypeTool } from '../../../src/core/tools/hoverType';
import { renameSymbolTool } from '../../../src/core/tools/renameSymbol';
import { productToolRegistry } from '../../../src/core/tools';
import { PRODUCT_ROLES } from '../../../src/core/roles/roles';
import { makeHarness, type Harness } from './toolHarness';

const CART = `import { price } from './price';

export interface Line { sku: string; qty: number }

export class Cart {
  private lines: Line[] = [];
  add(line: Line): void {
    const local = 1;
    this.lines.push(line);
  }
  total(): number {
    return this.lines.reduce((n, l) => n + price(l.sku) * l.qty, 0);
  }
}

export const EMPTY = new Cart();
export function makeCart(): Cart { return new Cart(); }
`;
const PRICE = `export function price(sku: string): number {\n  return sku.length;\n}\n`;

/** A language server stand-in answering from what the test tells it (the real one is tested in the extension host). */
function scriptedServer(answers: Partial<CodeIntelligence>): CodeIntelligence & { asked: { what: string; path: string; at?: CodePosition }[] } {
  const asked: { what: string; path: string; at?: CodePosition }[] = [];
  return {
    asked,
    workspaceSymbols: async (q) => (asked.push({ what: 'symbols', path: q }), (await answers.workspaceSymbols?.(q)) ?? []),
    documentSymbols: async (p) => (asked.push({ what: 'outline', path: p }), answers.documentSymbols?.(p)),
    definitions: async (p, at) => (asked.push({ what: 'definition', path: p, at }), (await answers.definitions?.(p, at)) ?? []),
    references: async (p, at) => (asked.push({ what: 'references', path: p, at }), (await answers.references?.(p, at)) ?? []),
    hover: async (p, at) => (asked.push({ what: 'hover', path: p, at }), (await answers.hover?.(p, at)) ?? []),
    rename: async (p, at, n) => {
      asked.push({ what: 'rename', path: p, at });
      if (!answers.rename) throw new Error('no rename provider');
      return answers.rename(p, at, n);
    },
  };
}

describe('language-server tools without an editor (CLI): tree-sitter fallback', () => {
  let h: Harness;
  beforeEach(() => {
    h = makeHarness();
    h.write('src/cart.ts', CART);
    h.write('src/price.ts', PRICE);
  });
  afterEach(() => h.cleanup());

  it('document_outline lists a TypeScript file\'s declarations with lines, members nested, no locals', async () => {
    const r = await h.call(documentOutlineTool, { path: 'src/cart.ts' });
    assert.equal(r.isError, undefined);
    const lines = r.content.split('\n');
    assert.equal(lines[0], 'src/cart.ts');
    assert.ok(lines.includes('interface Line  :3'), r.content);
    assert.ok(lines.includes('class Cart  :5'), r.content);
    assert.ok(lines.includes('  property lines  :6'), r.content);
    assert.ok(lines.includes('  method add  :7'), r.content);
    assert.ok(lines.includes('  method total  :11'), r.content);
    assert.ok(lines.includes('variable EMPTY  :16'), r.content);
    assert.ok(lines.includes('function makeCart  :17'), r.content);
    assert.doesNotMatch(r.content, /local/);
    assert.match(r.content, /syntax parse/);
  });

  it('document_outline reads Python classes and methods too', async () => {
    h.write('tool.py', 'class Shop:\n    def buy(self, x):\n        def inner():\n            pass\n        return x\n\ndef main():\n    pass\n');
    const r = await h.call(documentOutlineTool, { path: 'tool.py' });
    assert.match(r.content, /^class Shop {2}:1$/m);
    assert.match(r.content, /^ {2}method buy {2}:2$/m);
    assert.match(r.content, /^function main {2}:7$/m);
    assert.doesNotMatch(r.content, /inner/);
  });

  it('document_outline on a file no grammar covers says so and suggests search', async () => {
    h.write('notes.txt', 'hello');
    const r = await h.call(documentOutlineTool, { path: 'notes.txt' });
    assert.match(r.content, /No language server answered for notes\.txt.*try search/);
  });

  it('find_symbol finds declarations across files as path:line with the line, never in ignored files', async () => {
    h.write('.gitignore', 'secret/\n');
    h.write('secret/cartKeys.ts', 'export const CartKey = "hunter2";\n');
    h.write('src/use.ts', 'import { Cart } from "./cart";\nconst c = new Cart();\n');
    const r = await h.call(findSymbolTool, { name: 'Cart' });
    const lines = r.content.split('\n');
    assert.equal(lines[0], 'src/cart.ts:5  [class] export class Cart {', r.content);
    assert.ok(lines.some((l) => l.startsWith('src/cart.ts:17  [function] export function makeCart')), r.content);
    assert.doesNotMatch(r.content, /secret|hunter2|use\.ts/);
    const k = await h.call(findSymbolTool, { name: 'cart', kind: 'function' });
    assert.deepEqual(k.content.split('\n').filter((l) => /^\S+:\d+ /.test(l)).map((l) => l.split('  ')[0]), ['src/cart.ts:17']);
  });

  it('find_symbol with no match says so and suggests search', async () => {
    const r = await h.call(findSymbolTool, { name: 'Nowhere' });
    assert.match(r.content, /No symbol matching "Nowhere".*try search/);
  });

  it('definitions, references, hover and rename say they need the editor (nothing changed)', async () => {
    for (const tool of [goToDefinitionTool, findReferencesTool, hoverTypeTool]) {
      const r = await h.call(tool, { path: 'src/cart.ts', symbol: 'Cart' });
      assert.match(r.content, new RegExp(`${tool.name} needs the editor's language servers.*search`), tool.name);
    }
    const r = await h.call(renameSymbolTool, { path: 'src/cart.ts', symbol: 'Cart', new_name: 'Basket' });
    assert.equal(r.isError, true);
    assert.equal(h.read('src/cart.ts'), CART);
    assert.equal(h.approvals.length, 0);
  });

  it('every role that reads is offered the read tools; only the Actor gets rename_symbol', () => {
    const reg = productToolRegistry();
    const names = (id: string) => reg.offeredTo(PRODUCT_ROLES.get(id)).map((t) => t.name);
    for (const t of ['find_symbol', 'go_to_definition', 'find_references', 'document_outline', 'hover_type']) {
      assert.ok(names('planner').includes(t), t);
      assert.ok(names('actor').includes(t), t);
    }
    assert.ok(!names('planner').includes('rename_symbol'));
    assert.ok(names('actor').includes('rename_symbol'));
  });
});

describe('language-server tools with an editor', () => {
  let h: Harness;
  let cart: string;
  let price: string;
  beforeEach(() => {
    h = makeHarness();
    cart = h.write('src/cart.ts', CART);
    price = h.write('src/price.ts', PRICE);
  });
  afterEach(() => h.cleanup());

  it('go_to_definition asks at the symbol\'s column (found by name) and answers path:line with the line', async () => {
    const server = scriptedServer({ definitions: async () => [{ path: price, line: 1, column: 16 }] });
    h.ctx.host.codeIntel = server;
    const r = await h.call(goToDefinitionTool, { path: 'src/cart.ts', symbol: 'price', line: 12 });
    assert.equal(r.content, 'src/price.ts:1  export function price(sku: string): number {');
    assert.deepEqual(server.asked.at(-1), { what: 'definition', path: cart, at: { line: 12, column: CART.split('\n')[11]!.indexOf('price') } });
  });

  it('without a line, the position is where the file declares the symbol (Class.method picks the member)', async () => {
    const server = scriptedServer({ references: async () => [] });
    h.ctx.host.codeIntel = server;
    await h.call(findReferencesTool, { path: 'src/cart.ts', symbol: 'Cart.total' });
    assert.deepEqual(server.asked.at(-1)?.at, { line: 11, column: 2 });
  });

  it('a symbol that does not occur in the file is an error naming find_symbol', async () => {
    h.ctx.host.codeIntel = scriptedServer({});
    const r = await h.call(goToDefinitionTool, { path: 'src/cart.ts', symbol: 'Basket' });
    assert.equal(r.isError, true);
    assert.match(r.content, /"Basket" does not occur in src\/cart\.ts.*find_symbol/);
  });

  it('no answer from the language server: the tool says so and suggests search', async () => {
    h.ctx.host.codeIntel = scriptedServer({});
    for (const tool of [goToDefinitionTool, findReferencesTool, hoverTypeTool]) {
      const r = await h.call(tool, { path: 'src/cart.ts', symbol: 'Cart' });
      assert.equal(r.content, 'No language server answered for Cart in src/cart.ts — try search.', tool.name);
    }
  });

  it('references outside the workspace or in ignored files are counted, never shown; results are capped', async () => {
    h.write('.gitignore', '.env.ts\n');
    const env = h.write('.env.ts', 'export const KEY = price("sk-123");\n');
    const lib = path.join(h.outside, 'lib.d.ts');
    fs.writeFileSync(lib, 'declare function price(): number; // outside\n');
    const many: CodeLocation[] = Array.from({ length: 70 }, (_, i) => ({ path: price, line: (i % 3) + 1, column: 0 }));
    const lots = Array.from({ length: 60 }, (_, i) => `price(${i});`).join('\n');
    const big = h.write('src/big.ts', lots);
    h.ctx.host.codeIntel = scriptedServer({
      references: async () => [...many, { path: env, line: 1, column: 20 }, { path: lib, line: 1, column: 17 }, ...Array.from({ length: 60 }, (_, i) => ({ path: big, line: i + 1, column: 0 }))],
    });
    const r = await h.call(findReferencesTool, { path: 'src/price.ts', symbol: 'price' });
    assert.doesNotMatch(r.content, /sk-123|\/\/ outside|\.env/);
    assert.match(r.content, /^63 references to price:/);
    assert.match(r.content, /\[13 more not shown\]/);
    assert.match(r.content, /\[2 outside the workspace or in ignored files, not shown\]/);
    assert.match(r.content, /^src\/big\.ts:1 {2}price\(0\);$/m);
  });

  it('hover_type returns the hover text', async () => {
    h.ctx.host.codeIntel = scriptedServer({ hover: async () => ['```typescript\nfunction price(sku: string): number\n```'] });
    const r = await h.call(hoverTypeTool, { path: 'src/cart.ts', symbol: 'price' });
    assert.match(r.content, /function price\(sku: string\): number/);
  });

  it('document_outline prefers the language server\'s symbols', async () => {
    h.ctx.host.codeIntel = scriptedServer({ documentSymbols: async (p) => [{ name: 'Cart', kind: 'class', path: p, line: 5, column: 13, depth: 0 }, { name: 'total', kind: 'method', path: p, line: 11, column: 2, depth: 1, container: 'Cart' }] });
    const r = await h.call(documentOutlineTool, { path: 'src/cart.ts' });
    assert.equal(r.content, 'src/cart.ts\nclass Cart  :5\n  method total  :11');
  });

  it('rename_symbol: one approval listing every file with its diff, then all files written, each checkpointed', async () => {
    const use = h.write('src/use.ts', 'import { price } from "./price";\nexport const p = price("a");\n');
    h.ctx.host.codeIntel = scriptedServer({
      rename: async (_p, _at, n) => [
        { path: price, text: PRICE.replace('price', n) },
        { path: cart, text: CART.replaceAll('price', n) },
        { path: use, text: fs.readFileSync(use, 'utf8').replaceAll('price(', `${n}(`).replace('{ price }', `{ ${n} }`) },
      ],
    });
    const r = await h.call(renameSymbolTool, { path: 'src/price.ts', symbol: 'price', new_name: 'unitPrice' });
    assert.equal(r.isError, undefined, r.content);
    assert.equal(h.approvals.length, 1);
    const a = h.approvals[0]!;
    assert.deepEqual(a.info.files?.map((f) => f.path), ['src/price.ts', 'src/cart.ts', 'src/use.ts']);
    assert.match(a.info.diff ?? '', /-export function price[\s\S]*\+export function unitPrice[\s\S]*src\/cart\.ts[\s\S]*src\/use\.ts/);
    assert.equal(a.files?.length, 3);
    assert.match(h.read('src/use.ts'), /unitPrice\("a"\)/);
    assert.match(h.read('src/cart.ts'), /import \{ unitPrice \}/);
    assert.deepEqual(h.changed, [price, cart, use]);
    assert.match(r.content, /^Renamed price to unitPrice in 3 files: src\/price\.ts \(\+1 −1\)/);
  });

  it('rename_symbol rejected: nothing is written', async () => {
    h.ctx.host.codeIntel = scriptedServer({ rename: async () => [{ path: price, text: 'x' }, { path: cart, text: 'y' }] });
    h.approver.script = 'deny';
    const r = await h.call(renameSymbolTool, { path: 'src/price.ts', symbol: 'price', new_name: 'unitPrice' });
    assert.equal(r.isError, true);
    assert.equal(h.read('src/price.ts'), PRICE);
    assert.equal(h.read('src/cart.ts'), CART);
  });

  it('rename_symbol that would reach outside the workspace or into an ignored file is refused whole, nobody asked', async () => {
    const lib = path.join(h.outside, 'lib.ts');
    fs.writeFileSync(lib, 'price');
    h.ctx.host.codeIntel = scriptedServer({ rename: async () => [{ path: price, text: 'x' }, { path: lib, text: 'y' }] });
    h.approver.script = 'deny';
    const r = await h.call(renameSymbolTool, { path: 'src/price.ts', symbol: 'price', new_name: 'unitPrice' });
    assert.equal(r.isError, true);
    assert.equal(h.read('src/price.ts'), PRICE);
    assert.equal(fs.readFileSync(lib, 'utf8'), 'price');

    h.write('.gitignore', 'gen/\n');
    const gen = h.write('gen/out.ts', 'price');
    h.ctx.host.codeIntel = scriptedServer({ rename: async () => [{ path: price, text: 'x' }, { path: gen, text: 'y' }] });
    h.approver.script = 'approve';
    const g = await h.call(renameSymbolTool, { path: 'src/price.ts', symbol: 'price', new_name: 'unitPrice' });
    assert.equal(g.isError, true);
    assert.match(g.content, /gen\/out\.ts, which the ignore rules exclude/);
    assert.equal(h.read('src/price.ts'), PRICE);
    assert.equal(h.approvals.filter((x) => x.info.kind === 'edit').length, 0);
  });

  it('rename_symbol refused by the language server: its reason, nothing written', async () => {
    h.ctx.host.codeIntel = scriptedServer({ rename: async () => { throw new Error('You cannot rename elements that are defined in a library'); } });
    const r = await h.call(renameSymbolTool, { path: 'src/price.ts', symbol: 'price', new_name: 'x' });
    assert.equal(r.isError, true);
    assert.match(r.content, /defined in a library.*Nothing was changed/);
  });
});
