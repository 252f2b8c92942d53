import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

type Manifest = {
  contributes: {
    commands: { command: string; title: string }[];
    views: Record<string, { id: string; name: string }[]>;
    menus: { commandPalette?: { command: string; when?: string }[] };
  };
};

describe('the command palette', () => {
  // VS Code adds "Focus on <view> View" for every view; a command of ours doing the same would be listed twice.
  it('lists no command that only focuses one of our views (the workbench already lists "Focus on … View")', () => {
    const m = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as Manifest;
    const viewNames = Object.values(m.contributes.views).flat().map((v) => v.name);
    const hidden = new Set((m.contributes.menus.commandPalette ?? []).filter((e) => e.when === 'false').map((e) => e.command));
    const twins = m.contributes.commands.filter((c) => viewNames.some((n) => c.title === `Focus ${n}`) && !hidden.has(c.command));
    assert.deepEqual(twins.map((c) => `${c.command} (${c.title})`), []);
  });
});
