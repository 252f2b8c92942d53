/**
 * Files that hold secrets by their name alone (`.env`, `.env.local`, a private key): hidden from
 * sandboxed commands (bound empty), and never read as project instructions even when an
 * `AGENTS.md` links to one. The user can change the patterns for commands (sandbox settings).
 */
export const DEFAULT_SECRET_FILES: readonly string[] = ['.env*', '*.pem', '*.key'];

/** Basename patterns with `*` wildcards (`.env*`, `*.pem`) as one case-insensitive test. */
export function basenameMatcher(patterns: readonly string[]): (name: string) => boolean {
  const res = patterns.map((p) => new RegExp(`^${p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'i'));
  return (name) => res.some((r) => r.test(name));
}

/** Whether a file named `name` holds secrets by the default patterns. */
export const isSecretFileName: (name: string) => boolean = basenameMatcher(DEFAULT_SECRET_FILES);
