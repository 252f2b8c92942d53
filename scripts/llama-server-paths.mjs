// Where the llama-server test stage keeps its build: one place for the pin so the setup script and
// the tests agree. The version is node-llama-cpp's, whose package carries llama.cpp's source.
import { join } from 'node:path';
import { TEST_HOST_DIR } from './test-host-paths.mjs';

export const NODE_LLAMA_CPP_VERSION = '3.22.1';
export const LLAMA_SERVER_DIR = join(TEST_HOST_DIR, `llama-server-${NODE_LLAMA_CPP_VERSION}`);
export const LLAMA_SERVER_BIN = join(LLAMA_SERVER_DIR, 'bin', 'llama-server');
export const LLAMA_SERVER_TEMPLATES = join(LLAMA_SERVER_DIR, 'templates');
/** Written only after the built binary ran. */
export const LLAMA_SERVER_OK = join(LLAMA_SERVER_DIR, '.verified');
