#!/usr/bin/env node
// Stands in for the `code` executable that @vscode/test-electron's `runTests` launches
// (`vscodeExecutablePath`). code-server refuses `--extensionTestsPath` on its command line, so this
// maps `--extensionDevelopmentPath` / `--extensionTestsPath` (and an optional folder) onto VS Code's
// web test route: a fresh code-server, Chromium opening `/?folder=…&payload=…`, the extension host's
// console relayed from `codeAutomationLog`, and its exit code from `codeAutomationExit`.
// Exits with the suite's exit code. Flags it does not need (--no-sandbox, --user-data-dir, …) are ignored.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { startCodeServer, devPayload } from './code-server.mjs';
import { launchChromium } from './chromium.mjs';

/** Must match test/integration/support/statsMarker.ts. */
const STATS_MARKER = '##tandem-mocha-stats## ';
const HOST_LINE_MARKER = '##tandem-host## ';
/** The workbench logs a lot (connection, gallery lookups that fail offline); shown only on request. */
const verbose = process.env.TANDEM_TEST_VERBOSE === '1';

/** Log lines arrive as the logger's argument list (console.log's arguments for the extension host): format them as console.log would. */
function formatHostLog(message) {
  if (Array.isArray(message)) return format(...message);
  return typeof message === 'string' ? message : JSON.stringify(message);
}

const devPaths = [];
let testsPath;
let folder;
for (const a of process.argv.slice(2)) {
  if (a.startsWith('--extensionDevelopmentPath=')) devPaths.push(resolve(a.slice('--extensionDevelopmentPath='.length)));
  else if (a.startsWith('--extensionTestsPath=')) testsPath = resolve(a.slice('--extensionTestsPath='.length));
  else if (!a.startsWith('-')) folder = resolve(a);
}
if (!testsPath) {
  console.error('code-server-launcher: --extensionTestsPath=<suite index.js> is required');
  process.exit(2);
}

const timeoutMs = Number(process.env.TANDEM_TEST_TIMEOUT_MS ?? 10 * 60_000);
const echoServer = process.env.TANDEM_TEST_SERVER_LOG === '1';
// With no folder given, open an empty scratch workspace of our own (removed afterwards).
const scratch = folder ? undefined : mkdtempSync(join(tmpdir(), 'tandem-ws-'));
const workspace = folder ?? scratch;

let server;
let chromium;
async function cleanup() {
  await chromium?.close();
  await server?.stop();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}

let exitCode = 1;
try {
  server = await startCodeServer({ echo: echoServer });
  chromium = await launchChromium();
  const page = await chromium.browser.newPage();
  let resolveExit;
  const exited = new Promise((r) => { resolveExit = r; });
  await page.exposeFunction('codeAutomationLog', (level, message) => {
    let text = formatHostLog(message);
    const fromHost = text.indexOf(HOST_LINE_MARKER);
    if (fromHost < 0) {
      if (verbose) process.stderr.write(`[workbench ${level}] ${text}\n`);
      return;
    }
    text = text.slice(fromHost + HOST_LINE_MARKER.length);
    // The suite's stats line goes to the runner through a file, not to the console.
    if (text.startsWith(STATS_MARKER)) {
      if (process.env.TANDEM_TEST_STATS_FILE) writeFileSync(process.env.TANDEM_TEST_STATS_FILE, text.slice(STATS_MARKER.length).trim());
      return;
    }
    if (level === 'error' || level === 'warn') process.stderr.write(text + '\n');
    else process.stdout.write(text + '\n');
  });
  await page.exposeFunction('codeAutomationExit', (code) => resolveExit(Number(code)));
  if (process.env.TANDEM_TEST_BROWSER_LOG === '1') page.on('console', (m) => process.stderr.write(`[browser] ${m.text()}\n`));
  const payload = devPayload(server, { extensionDevelopmentPath: devPaths[0], extensionTestsPath: testsPath });
  await page.goto(server.workbenchUrl(workspace, payload));
  const timer = new Promise((r) => setTimeout(() => r('timeout'), timeoutMs).unref());
  const outcome = await Promise.race([exited, timer, server.exited.then((c) => `server-exit:${c}`)]);
  if (typeof outcome === 'number') exitCode = outcome;
  else console.error(`code-server-launcher: the test run did not finish (${outcome})\n${server.output.slice(-40).join('')}`);
} catch (e) {
  console.error(`code-server-launcher: ${e?.stack ?? e}`);
} finally {
  await cleanup();
}
process.exit(exitCode);
