import type { TurnOutcome } from '../../protocol';

/**
 * Thrown by a hook before a request to end the turn on purpose, not as a failure: the budget is
 * spent and the user chose to stop (`stopped`), nobody can be asked (`waiting`), or the request
 * cannot fit the window (`error`). The hook has already shown why in the chat.
 */
export class TurnHalt extends Error {
  constructor(readonly outcome: TurnOutcome, message: string) {
    super(message);
    this.name = 'TurnHalt';
  }
}

export function isTurnHalt(err: unknown): err is TurnHalt {
  return err instanceof TurnHalt;
}
