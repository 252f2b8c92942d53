import type { Logger } from '../../core/ports/ports';
import { redact } from '../../core/llm/llmError';

/** Logs to a writable (stderr) at or above a level; every line is scrubbed of the API key. */
export function streamLogger(write: (line: string) => void, level: 'debug' | 'info' | 'warn' | 'error' | 'off', apiKey?: string): Logger {
  const order = ['debug', 'info', 'warn', 'error', 'off'];
  const min = order.indexOf(level);
  const at = (l: string) => (msg: string) => {
    if (order.indexOf(l) >= min && level !== 'off') write(`[${l}] ${redact(msg, apiKey)}\n`);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
