/**
 * Serves a script from a JSON file so other processes (the VS Code UI tests, a manual `tandem run`)
 * can use the scripted server. Prints `URL <base-url>` on the first line of stdout, then waits.
 *   node out/test/support/runScriptedServer.js script.json [--port N] [--exhausted-text "..."]
 * The file holds `{ "steps": [...] }` (see ScriptStep) or just the array. More steps can be
 * POSTed to `<origin>/__script`; `GET <origin>/__requests` returns the log.
 */
import { readFileSync } from 'node:fs';
import { ScriptedServer, type ScriptStep, type ScriptedServerOptions } from './scriptedServer';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let file: string | undefined;
  let port = 0;
  const opts: ScriptedServerOptions = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--port') port = Number(args[++i]);
    else if (a === '--exhausted-text') opts.onExhausted = { text: args[++i] ?? '' };
    else file = a;
  }
  let steps: ScriptStep[] = [];
  if (file) {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    steps = Array.isArray(parsed) ? parsed : parsed.steps ?? [];
  }
  const server = await ScriptedServer.start(steps, opts, port);
  process.stdout.write(`URL ${server.url}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

void main();
