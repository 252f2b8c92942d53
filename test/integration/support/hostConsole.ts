/**
 * Imported first by the suite entry, before mocha captures `console.log`: tags every line the
 * extension host prints during the run (mocha's report, tests' own output, the extension's) so the
 * launcher can show exactly those and keep the workbench's own chatter for verbose runs.
 * VS Code's extension host defines the console methods with a no-op setter (so extensions cannot
 * silence its forwarding); redefining the property is what works.
 */
import { format } from 'node:util';
import { HOST_LINE_MARKER } from './statsMarker';

for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  const original = console[method].bind(console);
  const tagged = (...args: unknown[]) => original(HOST_LINE_MARKER + format(...args));
  try {
    Object.defineProperty(console, method, { configurable: true, enumerable: true, get: () => tagged, set: () => {} });
  } catch {
    (console as unknown as Record<string, unknown>)[method] = tagged;
  }
}
