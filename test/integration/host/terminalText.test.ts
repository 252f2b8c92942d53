import assert from 'node:assert/strict';
import { HeadTailBuffer } from '../../../src/core/text/truncate';
import { terminalToText } from '../../../src/host/vscode/terminalText';
import { shellQuote } from '../../../src/host/vscode/terminalCommandRunner';
import { spawnSync } from 'node:child_process';

describe('VS Code host: terminal output as text', () => {
  it('strips colours, titles and shell-integration marks, and keeps what a progress bar drew last', () => {
    const raw = '\x1b]633;C\x07\x1b[32mok\x1b[0m line\r\n\x1b]0;title\x0750%\r100%\r\ndone\r\n';
    assert.equal(terminalToText(raw), 'ok line\n100%\ndone\n');
  });

  it('caps a long stream with the core\'s head+tail buffer (the one the terminal runner uses) and says how much it left out', () => {
    const b = new HeadTailBuffer(300);
    b.push('HEAD-');
    for (let i = 0; i < 10_000; i++) b.push(`line ${i}\n`);
    b.push('-TAIL');
    const s = b.toString();
    assert.ok(s.startsWith('HEAD-line 0'));
    assert.ok(s.endsWith('-TAIL'));
    assert.match(s, /\[… \d+ characters of output left out …\]/);
    assert.ok(s.length < 400);
  });

  it('quotes a command for bash so it arrives unchanged, newlines and quotes included', () => {
    for (const cmd of ['echo hi', "echo 'single' \"double\" $HOME", 'printf "%s\\n" a\\\\b\necho second\tline']) {
      const r = spawnSync('bash', ['-c', `printf %s ${shellQuote(cmd)}`], { encoding: 'utf8' });
      assert.equal(r.stdout, cmd);
    }
  });
});
