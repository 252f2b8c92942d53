/**
 * A fresh machine without ripgrep: the unit stage must install it or fail loudly with the line that
 * installs it — never skip the tests that need it. Runs the real scripts with a PATH that has every
 * program of /usr/bin except `rg` (nothing is uninstalled). TANDEM_SETUP=check makes setup report
 * instead of running apt-get, which here would find ripgrep installed but still off this PATH.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findRipgrep } from '../../../src/host/node/findRipgrep';

const repoRoot = path.resolve(__dirname, __dirname.includes(path.join('out', 'test')) ? '../../../..' : '../../..');
const INSTALL_LINE = 'apt-get install -y --no-install-recommends ripgrep';

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, cwd = repoRoot) {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

const stageLine = (out: string) => {
  const m = [...out.matchAll(/^(\d+) passed, (\d+) failed$/gm)].pop();
  assert.ok(m, `no "N passed, N failed" line in:\n${out}`);
  return { passed: Number(m[1]), failed: Number(m[2]) };
};

describe('npm test on a machine without ripgrep: installed or a loud failure, never skipped', function () {
  this.timeout(180_000);
  let bin: string;
  let noRg: NodeJS.ProcessEnv;

  before(() => {
    bin = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-no-rg-'));
    for (const name of fs.readdirSync('/usr/bin')) if (name !== 'rg') fs.symlinkSync(path.join('/usr/bin', name), path.join(bin, name));
    noRg = { ...process.env, PATH: bin, TANDEM_SETUP: 'check' };
    assert.equal(findRipgrep(bin), undefined, 'the test PATH must not have rg');
    assert.ok(fs.existsSync(path.join(bin, 'node')) && fs.existsSync(path.join(bin, 'dpkg-query')));
  });
  after(() => fs.rmSync(bin, { recursive: true, force: true }));

  it('setup for the unit stage names ripgrep, why it is missing, and the line that installs it', () => {
    const r = run(process.execPath, ['scripts/setup-test-host.mjs', '--for', 'unit'], noRg);
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /ripgrep \(`rg` is not on PATH/);
    assert.ok(r.out.includes(INSTALL_LINE), r.out);
    assert.doesNotMatch(r.out, /chromium \(/, 'Chromium is there and must not be reported');
    assert.deepEqual(stageLine(r.out), { passed: 0, failed: 1 });
  });

  it('`npm run test:unit` stops at that setup with the install line instead of running without rg', () => {
    const r = run('npm', ['run', 'test:unit', '--', 'tools/search.test'], noRg);
    assert.notEqual(r.status, 0, r.out);
    assert.ok(r.out.includes(INSTALL_LINE), r.out);
    assert.doesNotMatch(r.out, /search \(ripgrep\)/, 'the tests must not have run');
  });

  it('the tests that need rg fail, naming the install, and are not pending', () => {
    const r = run(process.execPath, ['scripts/run-mocha.mjs', 'unit', 'tools/search.test', 'security/searchBacktracking'], { ...process.env, PATH: bin });
    assert.equal(r.status, 1, r.out);
    const { passed, failed } = stageLine(r.out);
    assert.ok(passed > 0, 'the JS search engine tests still run and pass');
    assert.ok(failed >= 3, `every ripgrep suite fails: ${failed}\n${r.out}`);
    assert.match(r.out, /ripgrep \(rg\) is not on PATH, and this test needs it\. Run `node scripts\/setup-test-host\.mjs --for unit`/);
    assert.doesNotMatch(r.out, /pending|skipped/);
  });

  it('with rg on PATH the same setup passes and installs nothing', () => {
    const r = run(process.execPath, ['scripts/setup-test-host.mjs', '--for', 'unit'], { ...process.env, TANDEM_SETUP: 'check' });
    assert.equal(r.status, 0, r.out);
    assert.match(r.out, /Debian packages present: chromium, ripgrep/);
    assert.deepEqual(stageLine(r.out), { passed: 1, failed: 0 });
  });
});

describe('a pending test counts as failed', () => {
  it('run-mocha reports this.skip() as a failure, by name', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tandem-pending-'));
    try {
      fs.mkdirSync(path.join(dir, 'out', 'test', 'unit'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'out', 'test', 'unit', 'skips.test.js'),
        "it('runs', () => {});\nit('needs a tool that is missing', function () { this.skip(); });\nit('has no body');\n");
      const r = run(process.execPath, [path.join(repoRoot, 'scripts', 'run-mocha.mjs'), 'unit'], process.env, dir);
      assert.equal(r.status, 1, r.out);
      assert.deepEqual(stageLine(r.out), { passed: 1, failed: 2 });
      assert.match(r.out, /did not run \(pending counts as failed\): needs a tool that is missing/);
      assert.match(r.out, /did not run \(pending counts as failed\): has no body/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
