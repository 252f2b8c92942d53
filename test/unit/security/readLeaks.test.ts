/**
 * Reads stay inside too: listing, finding and searching the workspace must not walk through a
 * symlink into a folder outside it, nor read an outside file a symlink points at, without an
 * approval naming the real path (headless: never). Planner, built CLI, no flags.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { cliTestKit } from '../../support/cliRunner';
import { calls, runCliAgainst, tc, text } from './securityKit';

const SECRET_NAME = 'outside-secret-name.txt';
const SECRET_TEXT = 'OUTSIDE_SECRET_CONTENT_42';

describe('security: reads never wander outside the workspace through symlinks (built CLI, Planner)', function () {
  this.timeout(60_000);
  const kit = cliTestKit({
    prefix: 'tandem-sec-reads-',
    outside: true,
    setup(ws, out) {
      fs.writeFileSync(path.join(out, SECRET_NAME), `${SECRET_TEXT}\n`);
      fs.mkdirSync(path.join(out, 'nested'));
      fs.writeFileSync(path.join(out, 'nested', 'deep.txt'), `${SECRET_TEXT} deep\n`);
      fs.mkdirSync(path.join(ws, 'src'));
      fs.writeFileSync(path.join(ws, 'src', 'main.ts'), 'export const inside = true;\n');
      fs.symlinkSync(out, path.join(ws, 'linked-dir'));
      fs.symlinkSync(path.join(out, SECRET_NAME), path.join(ws, 'src', 'linked-file.txt'));
    },
  });

  const probes: [string, ReturnType<typeof tc>][] = [
    ['list_files recursive from the root', tc('list_files', { path: '.', recursive: true })],
    ['list_files of the symlinked folder', tc('list_files', { path: 'linked-dir' })],
    ['list_files of the symlinked folder with a trailing slash', tc('list_files', { path: 'linked-dir/', recursive: true })],
    ['find_files **/*', tc('find_files', { pattern: '**/*' })],
    ['find_files **/*secret*', tc('find_files', { pattern: '**/*secret*' })],
    ['find_files with ../', tc('find_files', { pattern: '../OUTDIR/*' })],
    ['search the whole workspace', tc('search', { pattern: 'OUTSIDE_SECRET' })],
    ['search the src folder (holds a file symlink)', tc('search', { pattern: 'OUTSIDE_SECRET', path: 'src' })],
    ['search with an include glob', tc('search', { pattern: 'OUTSIDE_SECRET', include: '**/*.txt' })],
    ['read_file of the symlinked folder', tc('read_file', { path: 'linked-dir' })],
    ['read_file through the symlinked file', tc('read_file', { path: 'src/linked-file.txt' })],
    ['read_file through the symlinked folder', tc('read_file', { path: 'linked-dir/nested/deep.txt' })],
  ];

  for (const [name, call] of probes) {
    it(`${name}: no outside name or content reaches the model`, async () => {
      const real = JSON.parse(JSON.stringify(call).replaceAll('OUTDIR', path.basename(kit.out)));
      const r = await runCliAgainst(kit.cli, [calls(real), text('done')], kit.ws, ['--json', 'look around'], {});
      kit.server = r.server;
      assert.equal(r.run.code, 0, r.run.stderr);
      const sentBack = JSON.stringify(r.server.chatRequests()[1]?.messages.at(-1) ?? '');
      assert.ok(sentBack.length > 2, 'a tool result was sent back');
      assert.doesNotMatch(sentBack, new RegExp(SECRET_TEXT), sentBack);
      assert.doesNotMatch(r.run.stdout, new RegExp(SECRET_TEXT));
      // A refusal may name the real path the model itself asked for; anything else must not reveal outside names.
      if (call.name !== 'read_file' || (call.arguments as { path?: string }).path === 'linked-dir') {
        assert.doesNotMatch(sentBack, /outside-secret-name|deep\.txt/, sentBack);
        assert.doesNotMatch(r.run.stdout, /outside-secret-name|deep\.txt/);
      } else {
        assert.match(sentBack, /outside the workspace/);
      }
    });
  }
});
