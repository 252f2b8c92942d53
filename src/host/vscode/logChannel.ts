import * as vscode from 'vscode';
import type { Logger } from '../../core/ports/ports';

/**
 * The "Tandem" LogOutputChannel as the core's Logger. Anything that looks like a secret is masked
 * before it reaches the channel: the API key is never logged, even if a caller slips it into a message.
 */
export class ChannelLogger implements Logger, vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  private secrets: string[] = [];

  constructor(channel?: vscode.LogOutputChannel) {
    this.channel = channel ?? vscode.window.createOutputChannel('Tandem', { log: true });
  }

  /** Strings that must never appear in the log (the current API key). */
  setSecrets(values: readonly (string | undefined)[]): void {
    this.secrets = values.filter((v): v is string => typeof v === 'string' && v.length >= 4);
  }

  info(msg: string): void { this.channel.info(this.redact(msg)); }
  warn(msg: string): void { this.channel.warn(this.redact(msg)); }
  error(msg: string): void { this.channel.error(this.redact(msg)); }
  debug(msg: string): void { this.channel.debug(this.redact(msg)); }

  redact(msg: string): string {
    let out = msg;
    for (const s of this.secrets) out = out.split(s).join('***');
    // Bearer tokens and common key shapes, in case a request dump carries a key we were not told about.
    return out
      .replace(/(authorization["']?\s*[:=]\s*["']?bearer\s+)[^\s"',}]+/gi, '$1***')
      .replace(/\b(sk-[A-Za-z0-9_-]{8})[A-Za-z0-9_-]{8,}/g, '$1***');
  }

  dispose(): void { this.channel.dispose(); }
}
