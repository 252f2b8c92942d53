import type { Card, RoleId } from '../../protocol';
import type { PlanProvenance } from '../plans/planRecord';
import type { UsageTotals } from '../cost/usageMeter';

/**
 * On-disk form of a task (one folder per task under the host's storage dir):
 *
 *   meta.json       TaskMeta, replaced atomically at each flush (what the History list reads)
 *   snapshot.json   TaskSnapshot of generation g, replaced atomically at compaction
 *   log-<g>.jsonl   records appended since that snapshot, one JSON object per line
 *   checkpoints/    pre-images of files the agent changed (see ../checkpoints)
 *
 * The log never repeats text: a card is written whole once, later only the fields that changed,
 * and a string that grew (streamed text) only by its new suffix. A line cut by a kill is the last
 * one and is skipped on load; a snapshot is only ever seen whole (temp + fsync + rename).
 */
export const HISTORY_FORMAT_VERSION = 1;

export interface TaskMeta {
  format_version: number;
  id: string;
  /** From the first user request. */
  title: string;
  created: number;
  updated: number;
  workspace?: string;
  role: RoleId;
  /** Every model used, in order of first use. */
  models: string[];
  usage: UsageTotals;
  cards: number;
  /** Bytes on disk (snapshot + log), as of the last flush. */
  bytes: number;
}

export interface TaskSnapshot {
  format_version: number;
  gen: number;
  cards: Card[];
  provenance: Record<string, PlanProvenance>;
  meta: TaskMeta;
}

export type LogRecord =
  /** A card seen for the first time. */
  | { k: 'add'; card: Card }
  /** Top-level fields that changed since the card was last written. */
  | { k: 'set'; id: string; f: Record<string, unknown> }
  /** A string field that grew: only the new suffix. */
  | { k: 'app'; id: string; f: string; s: string }
  /** Plan provenance (raw output, validation, repairs) for a plan card. */
  | { k: 'prov'; id: string; p: PlanProvenance }
  /** Task-level facts (role, models, usage). */
  | { k: 'meta'; m: Partial<TaskMeta> };
