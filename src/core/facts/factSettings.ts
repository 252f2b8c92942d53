/** `tandem.facts.*`: whether facts are learned and sent, when one expires, how much prompt they may take, how many are kept. */
export interface FactSettings {
  enabled: boolean;
  /** A fact not re-checked for this many days is stale (not sent). */
  maxAgeDays: number;
  /** The prompt section's cap, in tokens. */
  maxTokens: number;
  /** Past this many facts, consolidation is due. */
  max: number;
}

export const DEFAULT_FACT_SETTINGS: FactSettings = { enabled: true, maxAgeDays: 60, maxTokens: 300, max: 40 };
