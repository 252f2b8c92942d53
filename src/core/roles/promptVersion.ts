import { createHash } from 'node:crypto';

/**
 * A prompt's version as kept with plans and verdicts (provenance): the role and a hash of the exact
 * text sent, so two answers can be told apart by the prompt that produced them without anyone
 * remembering to bump a number.
 */
export function promptVersion(roleId: string, text: string): string {
  return `${roleId}@${createHash('sha256').update(text).digest('hex').slice(0, 10)}`;
}
