import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScriptedServer } from '../../support/scriptedServer';
import { AgentSession } from '../../../src/host/vscode/agentSession';
import { DiffApprover } from '../../../src/host/vscode/diffApprover';
import { PanelApprover } from '../../../src/host/vscode/panelApprover';
import { PanelQuestionAsker } from '../../../src/host/vscode/questionAsker';
import { VscodeWorkspaceFs } from '../../../src/host/vscode/vscodeWorkspaceFs';
import { VscodeCodeIntelligence } from '../../../src/host/vscode/vscodeCodeIntelligence';
import { ApiKeyStore } from '../../../src/host/vscode/secrets';
import { NodeCommandRunner } from '../../../src/host/node/nodeCommandRunner';
import { HistoryStore } from '../../../src/core/history/historyStore';
import { defaultSettings } from '../../../src/core/settings/settings';
import { nullLogger } from '../../../src/core/ports/ports';
import type { Card } from '../../../src/protocol';
import { closeAllEditors, removeDir, tempDir } from './helpers';
import { waitFor } from '../../support/wait';
import { calls, numberedTc as tc, text } from '../../support/scriptSteps';
import { MemorySecrets } from '../support/fakes';

const SCHEMES = { proposed: 'tandem-proposed-code', original: 'tandem-original-code' };

const PRICE = 'export function price(sku: string): number {\n  return sku.length;\n}\n';
const CART = "import { price } from './price';\n\nexport class Cart {\n  private skus: string[] = [];\n  add(sku: string): void { this.skus.push(sku); }\n  total(): number {\n    return this.skus.reduce((n, s) => n + price(s), 0);\n  }\n}\n";
const SHOP = "import { Cart } from './cart';\nimport { price } from './price';\n\nexport function quote(sku: string): number {\n  const c = new Cart();\n  c.add(sku);\n  return c.total() + price(sku);\n}\n";

/**
 * The language-server tools in the real extension host, answered by VS Code's built-in TypeScript
 * language features (they run offline: the TypeScript server ships inside the editor), driven by
 * the scripted model through the same AgentSession the panel uses.
 */
describe('VS Code host: language-server tools on a TypeScript project (scripted model)', function () {
  this.timeout(120_000);
  let server: ScriptedServer;
  let dir: string;
  let rel: (f: string) => string;
  let session: AgentSession;
  let approver: DiffApprover;
  let panel: PanelApprover;
  let asker: PanelQuestionAsker;
  let wfs: VscodeWorkspaceFs;
  let historyDir: string;
  const cards = (): Card[] => session.cards();
  const toolCard = (name: string) => cards().filter((c): c is Extract<Card, { kind: 'tool_call' }> => c.kind === 'tool_call' && c.tool === name).at(-1);

  before(async () => {
    dir = tempDir('code');
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs' }, include: ['src'] }));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'price.ts'), PRICE);
    fs.writeFileSync(path.join(dir, 'src', 'cart.ts'), CART);
    fs.writeFileSync(path.join(dir, 'src', 'shop.ts'), SHOP);
    fs.writeFileSync(path.join(dir, 'notes.unknownlang'), 'price is a word here\n');
    // Wake the TypeScript server on this project and wait until it answers (the first answer can take a while).
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(dir, 'src', 'shop.ts')));
    await waitFor(async () => {
      const s = await vscode.commands.executeCommand<unknown[]>('vscode.executeDocumentSymbolProvider', doc.uri);
      if ((s?.length ?? 0) === 0) return false;
      // find_symbol asks the workspace's symbols, which answer only once the server has loaded the
      // whole project (later than one file's outline, minutes later on a loaded machine).
      const w = await vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', 'Cart');
      return (w ?? []).some((x) => x.name === 'Cart' && x.location.uri.fsPath.endsWith('cart.ts'));
    }, 'the TypeScript language server to answer for the whole project', 90_000);
  });
  after(() => removeDir(dir));

  beforeEach(async () => {
    server = await ScriptedServer.start([], {});
    wfs = new VscodeWorkspaceFs();
    rel = (f: string) => path.relative(wfs.roots[0]!, path.join(dir, f)).split(path.sep).join('/');
    panel = new PanelApprover();
    approver = new DiffApprover(panel, nullLogger, () => wfs.roots, SCHEMES);
    asker = new PanelQuestionAsker();
    historyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-code-history-'));
    session = new AgentSession({
      host: { fs: wfs, commands: new NodeCommandRunner(), approver, asker, codeIntel: new VscodeCodeIntelligence(), logger: nullLogger },
      approver, asker,
      keys: new ApiKeyStore(new MemorySecrets()),
      settings: defaultSettings({ baseURL: `${server.url}`, apiKey: 'k', models: { planner: 'm', actor: 'm' } }),
      history: new HistoryStore(historyDir),
    });
  });

  afterEach(async () => {
    session.stop();
    // Saves the task's history now: a debounced write landing after the folder is gone would fail in a later test.
    await session.task.close();
    await closeAllEditors();
    approver.dispose();
    panel.dispose();
    asker.dispose();
    wfs.dispose();
    await server.close();
    fs.rmSync(historyDir, { recursive: true, force: true });
  });

  it('the Planner finds symbols, a definition across files, references and a type from the TypeScript server', async () => {
    server.replace([
      calls(
        tc('find_symbol', { name: 'Cart' }),
        tc('go_to_definition', { path: rel('src/shop.ts'), symbol: 'price', line: 7 }),
        tc('find_references', { path: rel('src/price.ts'), symbol: 'price' }),
        tc('document_outline', { path: rel('src/cart.ts') }),
        tc('hover_type', { path: rel('src/shop.ts'), symbol: 'quote' }),
      ),
      text('Done looking.'),
    ]);
    await session.handle({ type: 'send', text: 'Where is price defined and used?' });
    assert.equal(session.role, 'planner');

    const sym = toolCard('find_symbol');
    assert.equal(sym?.status, 'done', sym?.error);
    assert.match(sym?.result ?? '', new RegExp(`^${rel('src/cart.ts')}:3 {2}\\[class\\] export class Cart \\{$`, 'm'));
    assert.doesNotMatch(sym?.result ?? '', /syntax parse/, 'answered by the language server, not the fallback');

    const def = toolCard('go_to_definition');
    assert.equal(def?.result, `${rel('src/price.ts')}:1  export function price(sku: string): number {`);

    const refs = toolCard('find_references');
    const lines = (refs?.result ?? '').split('\n');
    assert.equal(lines[0], '5 references to price:', refs?.result);
    for (const [f, line] of [['src/cart.ts', 1], ['src/cart.ts', 7], ['src/price.ts', 1], ['src/shop.ts', 2], ['src/shop.ts', 7]] as const) {
      assert.ok(lines.some((l) => l.startsWith(`${rel(f)}:${line}  `)), `${f}:${line} in\n${refs?.result}`);
    }

    const outline = toolCard('document_outline');
    assert.match(outline?.result ?? '', /^class Cart {2}:3$/m);
    assert.match(outline?.result ?? '', /^ {2}method total {2}:6$/m);
    assert.doesNotMatch(outline?.result ?? '', /syntax parse/);

    assert.match(toolCard('hover_type')?.result ?? '', /function quote\(sku: string\): number/);
  });

  it('a language without a server: the tool says so and suggests search', async () => {
    server.replace([
      calls(tc('go_to_definition', { path: rel('notes.unknownlang'), symbol: 'price' }), tc('document_outline', { path: rel('notes.unknownlang') })),
      text('ok'),
    ]);
    await session.handle({ type: 'send', text: 'look' });
    assert.equal(toolCard('go_to_definition')?.result, `No language server answered for price in ${rel('notes.unknownlang')} — try search.`);
    assert.match(toolCard('document_outline')?.result ?? '', /No language server answered .* try search/);
  });

  it('rename_symbol across three files: one approval listing every file, all written, and Revert undoes all three', async () => {
    server.replace([
      calls(tc('rename_symbol', { path: rel('src/price.ts'), symbol: 'price', new_name: 'unitPrice' })),
      text('Renamed.'),
    ]);
    await session.handle({ type: 'set_role', role: 'actor' });
    const running = session.handle({ type: 'send', text: 'Rename price to unitPrice' });
    const card = await waitFor(() => { const c = toolCard('rename_symbol'); return c?.status === 'pending' && c.approval ? c : undefined; }, 'the rename approval', 30_000);
    assert.deepEqual(card.approval?.files?.map((f) => f.path).sort(), ['src/cart.ts', 'src/price.ts', 'src/shop.ts'].map(rel).sort());
    assert.equal(fs.readFileSync(path.join(dir, 'src', 'cart.ts'), 'utf8'), CART, 'nothing written before approval');
    // The multi-file diff shows every file's change.
    await waitFor(() => vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.label.startsWith('Tandem proposal')), 'the multi-file diff');

    await session.handle({ type: 'approve', call_id: card.call_id });
    await running;
    const after = toolCard('rename_symbol');
    assert.equal(after?.status, 'done', after?.error);
    assert.equal(cards().filter((c) => c.kind === 'tool_call' && c.status !== 'done').length, 0, 'one approval, nothing else pending');
    const price = fs.readFileSync(path.join(dir, 'src', 'price.ts'), 'utf8');
    const cart = fs.readFileSync(path.join(dir, 'src', 'cart.ts'), 'utf8');
    const shop = fs.readFileSync(path.join(dir, 'src', 'shop.ts'), 'utf8');
    assert.match(price, /export function unitPrice\(/);
    assert.match(cart, /import \{ unitPrice \} from '\.\/price';[\s\S]*n \+ unitPrice\(s\)/);
    assert.match(shop, /import \{ unitPrice \} from '\.\/price';[\s\S]*c\.total\(\) \+ unitPrice\(sku\)/);
    assert.doesNotMatch(price + cart + shop, /\bprice\(/);

    await session.handle({ type: 'revert_call', call_id: card.call_id });
    await waitFor(() => fs.readFileSync(path.join(dir, 'src', 'shop.ts'), 'utf8') === SHOP, 'shop.ts to be restored');
    assert.equal(fs.readFileSync(path.join(dir, 'src', 'price.ts'), 'utf8'), PRICE);
    assert.equal(fs.readFileSync(path.join(dir, 'src', 'cart.ts'), 'utf8'), CART);
  });
});
