/**
 * `--hooks FILE`: the user's hooks for one CLI run, exactly the files named (repeatable). The CLI
 * never runs a repository's own `.tandem/hooks.json` or the user's `~/.tandem/hooks.json` unnamed:
 * a headless run has nobody to ask whether to trust them, and naming the file is that trust.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseHookConfig, type HookCommand } from '../core/userHooks/hookConfig';

export function readHookFiles(files: readonly string[], cwd: string, say: (line: string) => void): HookCommand[] | { error: string } {
  const commands: HookCommand[] = [];
  for (const f of files) {
    let data: unknown;
    try {
      data = JSON.parse(fs.readFileSync(path.resolve(cwd, f), 'utf8'));
    } catch (err) {
      return { error: `--hooks ${f}: ${err instanceof Error ? err.message : String(err)}` };
    }
    const parsed = parseHookConfig(data, f);
    for (const p of parsed.problems) say(`tandem: --hooks ${p}\n`);
    commands.push(...parsed.commands);
  }
  return commands;
}
