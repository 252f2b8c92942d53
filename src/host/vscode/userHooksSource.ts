/**
 * The editor's user hooks: the user's `tandem.hooks` setting (their own settings only: a
 * workspace's settings.json comes with the repository), `~/.tandem/hooks.json`, and each workspace
 * folder's `.tandem/hooks.json` once the user trusts its commands (hooksTrust.ts). Read as each
 * turn starts, so an edit to any of them counts from the next turn; the trust question comes then
 * too, when the hooks are about to be used, not when the window opens.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
// The ESM build: the UMD main loads its parts with require calls a bundler cannot follow.
import { parse as parseJsonc, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { parseHookConfig, type HookCommand } from '../../core/userHooks/hookConfig';
import { UserHooks } from '../../core/userHooks/userHooks';
import type { Logger } from '../../core/ports/ports';
import { NodeHookProcess } from '../node/nodeHookProcess';
import { VscodeHooksTrust } from './hooksTrust';

export const REPO_HOOKS_FILE = path.join('.tandem', 'hooks.json');

interface Source {
  label: string;
  file?: string;
  commands: HookCommand[];
  /** A repository's file: runs only when trusted. */
  repo: boolean;
}

export class VscodeUserHooks {
  readonly trust: VscodeHooksTrust;
  private readonly process = new NodeHookProcess();
  /** Problems already logged (each once per window, not at every turn). */
  private readonly said = new Set<string>();

  constructor(context: vscode.ExtensionContext, private readonly logger: Logger) {
    this.trust = new VscodeHooksTrust(context.workspaceState);
  }

  /** The hooks for the turn about to start (asking about an untrusted repository file first); undefined when there are none. */
  async current(ui?: { waiting(detail: string): void }): Promise<UserHooks | undefined> {
    const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!cwd) return undefined;
    const commands: HookCommand[] = [];
    for (const s of this.sources()) {
      if (s.repo && s.file && !this.trust.isTrusted(s.file, s.commands) && !(await this.askTrust(s, s.file, ui))) {
        this.once(`hooks: ${s.label} is not trusted; its hooks do not run (Tandem: Hooks to trust it)`);
        continue;
      }
      commands.push(...s.commands);
    }
    return commands.length ? new UserHooks({ commands, process: this.process, cwd, logger: this.logger }) : undefined;
  }

  private askTrust(s: Source, file: string, ui?: { waiting(detail: string): void }): Promise<boolean> {
    ui?.waiting(`Trust ${s.label}? (dialog)`);
    return this.trust.ask(file, s.label, s.commands);
  }

  private once(line: string): void {
    if (this.said.has(line)) return;
    this.said.add(line);
    this.logger.warn(line);
  }

  private sources(): Source[] {
    const out: Source[] = [];
    const add = (label: string, data: unknown, repo: boolean, file?: string) => {
      const parsed = parseHookConfig(data, label);
      for (const p of parsed.problems) this.once(`hooks: ${p}`);
      if (parsed.commands.length) out.push({ label, commands: parsed.commands, repo, ...(file ? { file } : {}) });
    };
    // Only the user's own value: a workspace's .vscode/settings.json comes with the repository.
    const setting = vscode.workspace.getConfiguration('tandem').inspect<unknown>('hooks')?.globalValue;
    if (setting !== undefined) add('tandem.hooks', setting, false);
    const home = path.join(os.homedir(), '.tandem', 'hooks.json');
    const user = this.readJson(home, '~/.tandem/hooks.json');
    if (user !== undefined) add('~/.tandem/hooks.json', user, false, home);
    for (const f of vscode.workspace.workspaceFolders ?? []) {
      const file = path.join(f.uri.fsPath, REPO_HOOKS_FILE);
      const shown = (vscode.workspace.workspaceFolders?.length ?? 0) > 1 ? path.join(f.name, REPO_HOOKS_FILE) : REPO_HOOKS_FILE;
      const data = this.readJson(file, shown);
      if (data !== undefined) add(shown, data, true, file);
    }
    return out;
  }

  private readJson(file: string, shown: string): unknown {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
    const errors: ParseError[] = [];
    const data = parseJsonc(text, errors, { allowTrailingComma: true });
    if (errors.length) {
      this.once(`hooks: ${shown} is not valid JSON (${errors.length} errors); its hooks do not run`);
      return undefined;
    }
    return data;
  }

  /** Tandem: Hooks — every hook in force and where it comes from; trust or revoke a repository's file. */
  async show(): Promise<void> {
    type Item = vscode.QuickPickItem & { source?: Source };
    const sources = this.sources();
    if (!sources.length) {
      void vscode.window.showInformationMessage('No hooks are configured. Add them to the tandem.hooks setting, ~/.tandem/hooks.json or the workspace\'s .tandem/hooks.json.');
      return;
    }
    const items: Item[] = sources.map((s) => {
      const trusted = !s.repo || (s.file !== undefined && this.trust.isTrusted(s.file, s.commands));
      return {
        label: `${trusted ? '$(pass)' : '$(circle-slash)'} ${s.label}`,
        description: s.repo ? (trusted ? 'from the workspace · trusted' : 'from the workspace · not trusted') : 'yours',
        detail: s.commands.map((c) => `${c.event}${c.matcher ? ` [${c.matcher}]` : ''}: ${c.command}`).join(' · '),
        source: s,
      };
    });
    const picked = await vscode.window.showQuickPick(items, { title: 'Tandem: Hooks', placeHolder: 'Pick a workspace file to trust it or revoke its trust' });
    const s = picked?.source;
    if (!s?.repo || !s.file) return;
    if (this.trust.isTrusted(s.file, s.commands)) {
      const revoke = 'Revoke Trust';
      if ((await vscode.window.showQuickPick([revoke], { title: `${s.label}: its hooks run` })) === revoke) await this.trust.revoke(s.file);
    } else {
      await this.trust.ask(s.file, s.label, s.commands, true);
    }
  }
}
