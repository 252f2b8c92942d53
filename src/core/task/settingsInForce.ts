/**
 * One task's settings as they stand, and what is built from them: the LLM client and the approval
 * policy's input. A change (the user edited the settings) takes effect from the next request; the
 * parts that keep their own copy are told through `onChange`.
 */
import { LlmClient } from '../llm';
import type { Logger } from '../ports/ports';
import type { PolicyInput } from '../policy/approvalPolicy';
import type { AgentSettings } from '../settings/settings';

export class SettingsInForce {
  private settings: AgentSettings;
  private client: LlmClient;
  private readonly changed: ((settings: AgentSettings) => void)[] = [];

  constructor(settings: AgentSettings, private readonly env: { logger: Logger; roots(): readonly string[] }) {
    this.settings = settings;
    this.client = this.clientFor(settings);
  }

  get now(): AgentSettings {
    return this.settings;
  }

  get llm(): LlmClient {
    return this.client;
  }

  /** What the approval policy judges a call against, under these settings. */
  policy(): PolicyInput {
    const s = this.settings;
    return { approval: s.approval, commandAllowList: s.commandAllowList, roots: this.env.roots(), allowedTools: s.mcpAllowedTools ?? [] };
  }

  onChange(listener: (settings: AgentSettings) => void): void {
    this.changed.push(listener);
  }

  update(settings: AgentSettings): void {
    this.settings = settings;
    this.client = this.clientFor(settings);
    for (const listener of this.changed) listener(settings);
  }

  private clientFor(s: AgentSettings): LlmClient {
    return new LlmClient({ baseURL: s.baseURL, apiKey: s.apiKey, maxRetries: s.limits.maxRetries, idleTimeoutMs: s.limits.requestIdleTimeoutMs, firstTokenTimeoutMs: s.limits.firstOutputTimeoutMs, requestDeadlineMs: s.limits.requestDeadlineMs, logger: this.env.logger });
  }
}
