// Where the llama-server test stage keeps its build: one place for the pin so the setup script and
// the tests agree. The version is node-llama-cpp's, whose package carries llama.cpp's source.
import { join } from 'node:path';
import { ROOT } from './test-host-paths.mjs';

export const NODE_LLAMA_CPP_VERSION = '3.22.1';
/** Ignored; TANDEM_LLAMA_SERVER_DIR may point several checkouts at one build. */
export const LLAMA_SERVER_DIR = process.env.TANDEM_LLAMA_SERVER_DIR || join(ROOT, '.cache', `llama-server-${NODE_LLAMA_CPP_VERSION}`);
export const LLAMA_SERVER_BIN = join(LLAMA_SERVER_DIR, 'bin', 'llama-server');
export const LLAMA_SERVER_TEMPLATES = join(LLAMA_SERVER_DIR, 'templates');
/** The chat template the llama-server tests use: Qwen2.5's (tool calls in `<tool_call>` tags). */
export const TEST_TEMPLATE = 'Qwen-Qwen2.5-7B-Instruct.jinja';
/** Written only after the built binary ran. */
export const LLAMA_SERVER_OK = join(LLAMA_SERVER_DIR, '.verified');
