/**
 * The CLI's facts: the file beside the workspace's history (`--history-dir` or the data folder),
 * the global facts' file in the data folder itself (`$TANDEM_DATA_DIR/facts.json`),
 * this workspace's key, and `tandem.facts.*` from the environment (`TANDEM_FACTS=off`,
 * `TANDEM_FACTS_MAX_AGE_DAYS`, `TANDEM_FACTS_MAX_TOKENS`, `TANDEM_FACTS_MAX`).
 */
import * as path from 'node:path';
import type { WorkspaceFs } from '../core/ports/ports';
import { FactBook } from '../core/facts/factBook';
import { FACTS_FILE, FactStore } from '../core/facts/factStore';
import { DEFAULT_FACT_SETTINGS, type FactSettings } from '../core/facts/factSettings';
import { dataHome, workspaceFolderName } from '../core/history/storageDir';

function whole(v: string | undefined, fallback: number, min: number): number {
  const n = v === undefined ? NaN : Number(v);
  return Number.isInteger(n) && n >= min ? n : fallback;
}

export function factSettingsFromEnv(env: NodeJS.ProcessEnv): FactSettings {
  return {
    enabled: env.TANDEM_FACTS !== 'off' && env.TANDEM_FACTS !== '0',
    maxAgeDays: whole(env.TANDEM_FACTS_MAX_AGE_DAYS, DEFAULT_FACT_SETTINGS.maxAgeDays, 0),
    maxTokens: whole(env.TANDEM_FACTS_MAX_TOKENS, DEFAULT_FACT_SETTINGS.maxTokens, 0),
    max: whole(env.TANDEM_FACTS_MAX, DEFAULT_FACT_SETTINGS.max, 1),
  };
}

export function cliFactBook(o: { workspace: string; historyDir: string; fs: WorkspaceFs; env: NodeJS.ProcessEnv; secret?: string; learning?: boolean }): FactBook {
  const settings = factSettingsFromEnv(o.env);
  return new FactBook({
    store: new FactStore(path.join(o.historyDir, FACTS_FILE)),
    // The user's global facts: in the data folder itself, beside every workspace's folder.
    globalStore: new FactStore(path.join(dataHome(o.env), FACTS_FILE)),
    fs: o.fs,
    workspace: workspaceFolderName(o.workspace),
    settings: () => settings,
    ...(o.secret ? { secret: () => o.secret } : {}),
    ...(o.learning === false ? { learning: false } : {}),
  });
}
