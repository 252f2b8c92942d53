/**
 * The built-in suite as an installed extension has it: the real production build packaged by the
 * real `vsce` (scripts/package.mjs), unzipped the way VS Code installs it, and `tandem eval` run
 * from that folder (the production CLI bundle put beside extension.js, since the VSIX carries none)
 * against the scripted server, one built-in JavaScript task and one TypeScript task. The suite is
 * in the VSIX as one pack, unpacked into the data folder on first use and checked on every use;
 * the TypeScript task compiles with a TypeScript package (what the editor offers: VS Code's own)
 * with no esbuild anywhere — the install has none.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli, runCliProcess } from '../../support/cliRunner';
import { ScriptedServer } from '../../support/scriptedServer';
import { referenceModel, referenceOf } from '../../support/evalModels';
import { EvalReport } from '../../../src/core/eval/evalReport';
import { findTaskFolders } from '../../../src/host/node/eval/evalTasks';

const ROOT = path.resolve('.');
const SUITE = path.join(ROOT, 'eval-suite');

describe('the built-in eval suite from an installed VSIX (production build, real vsce, built CLI, scripted server)', function () {
  this.timeout(600_000);
  let tmp: string;
  let extension: string;
  let vsixEntries: string[];
  let server: ScriptedServer | undefined;
  const dirs = findTaskFolders(SUITE);
  const js = dirs.find((d) => path.relative(SUITE, d).startsWith('js/'))!;
  const ts = dirs.find((d) => path.relative(SUITE, d).startsWith('ts/'))!;
  const id = (d: string) => path.relative(SUITE, d).split(path.sep).join('/');

  before(async () => {
    await buildCli(); // dist/ as the other suites expect it; the VSIX is built apart below
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-eval-vsix-')));
    const stage = path.join(tmp, 'stage');
    const vsix = path.join(tmp, 'tandem.vsix');
    const script = `import { stageProductionBuild, packageStage } from ${JSON.stringify(path.join(ROOT, 'scripts', 'package.mjs'))};
stageProductionBuild(${JSON.stringify(stage)}, { quiet: true }); packageStage(${JSON.stringify(stage)}, ${JSON.stringify(vsix)}, { quiet: true });`;
    execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: 'pipe' });
    const installed = path.join(tmp, 'installed');
    execFileSync('unzip', ['-q', vsix, '-d', installed]);
    vsixEntries = execFileSync('unzip', ['-Z1', vsix], { encoding: 'utf8' }).split('\n').filter(Boolean);
    extension = path.join(installed, 'extension');
    // The VSIX has no CLI; the production one from the same build runs the same runner the extension does.
    fs.copyFileSync(path.join(stage, 'dist', 'cli.js'), path.join(extension, 'dist', 'cli.js'));
    fs.rmSync(stage, { recursive: true, force: true });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  const evalInstalled = async (out: string, data: string) => {
    server ??= await ScriptedServer.start([], { respond: referenceModel([js, ts].map(referenceOf)) });
    const work = fs.mkdtempSync(path.join(tmp, 'project-'));
    const r = await runCliProcess(path.join(extension, 'dist', 'cli.js'), ['eval', '--out', out, '--tasks', id(js), '--tasks', id(ts)], {
      cwd: work,
      env: {
        TANDEM_BASE_URL: server.url, TANDEM_API_KEY: 'sk-x', TANDEM_DATA_DIR: data,
        // What the extension offers in the editor: VS Code's own TypeScript (here Tandem's dev copy of the same package).
        TANDEM_EVAL_TYPESCRIPT: path.join(ROOT, 'node_modules', 'typescript'),
      },
      timeoutMs: 590_000,
    });
    assert.equal(r.code, 0, r.stderr);
    const report = EvalReport.parse(JSON.parse(fs.readFileSync(path.join(out, 'report.json'), 'utf8')));
    assert.deepEqual(report.results.map((x) => `${x.task}: ${x.passed ? 'passed' : `${x.reason} ${x.detail}`}`).sort(), [id(js), id(ts)].map((t) => `${t}: passed`).sort());
    return r;
  };

  it('carries the suite as one small pack, not as task folders', () => {
    assert.deepEqual(vsixEntries.filter((e) => e.startsWith('extension/eval-suite/')), [], 'no task folders in the VSIX');
    assert.ok(vsixEntries.includes('extension/dist/builtin-eval/suite.json.br'), vsixEntries.join('\n'));
    const packed = fs.statSync(path.join(extension, 'dist', 'builtin-eval', 'suite.json.br')).size;
    assert.ok(packed < 150 * 1024, `the pack is ${packed} bytes`);
    assert.ok(!fs.existsSync(path.join(extension, 'node_modules')), 'the install has no node_modules (no esbuild)');
  });

  it('runs a JavaScript and a TypeScript task from the install with no esbuild, unpacking the suite once and repairing it when damaged', async () => {
    const data = path.join(tmp, 'data');
    await evalInstalled(path.join(tmp, 'out1'), data);
    const unpacked = fs.readdirSync(data).filter((n) => n.startsWith('eval-suite-'));
    assert.equal(unpacked.length, 1, `one unpacked suite: ${unpacked.join(', ')}`);
    const suite = path.join(data, unpacked[0]!);
    // Byte for byte the suite of the checkout.
    for (const d of [js, ts]) {
      for (const f of ['task.json', ...fs.readdirSync(path.join(d, 'verify'), { recursive: true }).map((f) => path.join('verify', String(f)))]) {
        const abs = path.join(d, f);
        if (fs.statSync(abs).isFile()) assert.ok(fs.readFileSync(path.join(suite, id(d), f)).equals(fs.readFileSync(abs)), `${id(d)}/${f}`);
      }
    }

    // A damaged copy (a verifier file emptied, a task.json gone) is noticed and unpacked afresh; nothing else is made.
    const verifyFile = path.join(suite, id(ts), 'verify', '.tandem-eval', 'typescript.js');
    fs.writeFileSync(verifyFile, '');
    fs.rmSync(path.join(suite, id(js), 'task.json'));
    await evalInstalled(path.join(tmp, 'out2'), data);
    assert.deepEqual(fs.readdirSync(data).filter((n) => n.startsWith('eval-suite')), unpacked);
    assert.ok(fs.readFileSync(verifyFile).equals(fs.readFileSync(path.join(ts, 'verify', '.tandem-eval', 'typescript.js'))));
    assert.ok(fs.existsSync(path.join(suite, id(js), 'task.json')));
  });
});
