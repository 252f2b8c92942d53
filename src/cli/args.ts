import { PRODUCT_ROLE_INFO, type RoleId, type RoleInfo, type RoleRegistry } from '../protocol';

export interface RunArgs {
  kind: 'run';
  workspace?: string;
  role: RoleId;
  model?: string;
  baseURL?: string;
  approve?: 'never' | 'edits' | 'all';
  answerDefault: boolean;
  json: boolean;
  prompt: string;
}

export type ParsedArgs = RunArgs | { kind: 'help' } | { kind: 'error'; message: string };

const VALUE_FLAGS = new Set(['--workspace', '--role', '--model', '--base-url', '--approve', '--answer']);

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T | string {
  return (allowed as readonly string[]).includes(value) ? (value as T) : `${flag} must be one of ${allowed.join(', ')} (got "${value}")`;
}

/**
 * `tandem run [options] "<prompt>"`; flags may come before or after the prompt, `--flag=value` works too.
 * `--role` takes any id of `roles` (default: the first role).
 */
export function parseArgs(argv: readonly string[], roles: RoleRegistry<RoleInfo> = PRODUCT_ROLE_INFO): ParsedArgs {
  if (argv.length === 0) return { kind: 'error', message: 'missing command' };
  if (argv.includes('-h') || argv.includes('--help') || argv[0] === 'help') return { kind: 'help' };
  const [command, ...rest] = argv;
  if (command !== 'run') return { kind: 'error', message: `unknown command "${command}" (expected "run")` };
  const out: RunArgs = { kind: 'run', role: roles.initial.id, answerDefault: false, json: false, prompt: '' };
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    let a = rest[i]!;
    let value: string | undefined;
    if (a === '--') {
      words.push(...rest.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.includes('=')) {
      value = a.slice(a.indexOf('=') + 1);
      a = a.slice(0, a.indexOf('='));
    }
    if (a === '--json') {
      if (value !== undefined) return { kind: 'error', message: '--json takes no value' };
      out.json = true;
      continue;
    }
    if (VALUE_FLAGS.has(a)) {
      if (value === undefined) {
        value = rest[++i];
        if (value === undefined || (value.startsWith('--') && VALUE_FLAGS.has(value))) return { kind: 'error', message: `${a} needs a value` };
      }
      switch (a) {
        case '--workspace':
          out.workspace = value;
          break;
        case '--model':
          if (!value.trim()) return { kind: 'error', message: '--model needs a value' };
          out.model = value;
          break;
        case '--base-url':
          out.baseURL = value;
          break;
        case '--role': {
          if (!roles.has(value)) return { kind: 'error', message: oneOf(a, value, roles.ids) };
          out.role = value;
          break;
        }
        case '--approve': {
          const r = oneOf(a, value, ['never', 'edits', 'all'] as const);
          if (r !== 'never' && r !== 'edits' && r !== 'all') return { kind: 'error', message: r };
          out.approve = r;
          break;
        }
        case '--answer':
          if (value !== 'default') return { kind: 'error', message: `--answer must be "default" (got "${value}")` };
          out.answerDefault = true;
          break;
      }
      continue;
    }
    if (a.startsWith('-') && a !== '-') return { kind: 'error', message: `unknown option ${a}` };
    words.push(a);
  }
  out.prompt = words.join(' ').trim();
  if (!out.prompt) return { kind: 'error', message: 'missing the prompt' };
  return out;
}
