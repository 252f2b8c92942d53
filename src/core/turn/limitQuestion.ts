import type { Question } from '../../protocol';

/** The question shown when a turn reaches its tool-call limit. Default: stop (a runaway agent must not go on by default). */
export function limitQuestion(count: number): Question {
  return {
    question: `The agent has made ${count} tool calls in this turn. Let it continue?`,
    context: 'Tool calls per turn are limited (setting: limits.maxToolCallsPerTurn) so a confused model cannot loop forever.',
    severity: 'minor',
    options: [
      { label: 'Continue', value: 'continue', description: `Allow up to ${count} more tool calls` },
      { label: 'Stop here', value: 'stop', description: 'End the turn now' },
    ],
    default: 'stop',
    allow_custom: false,
  };
}
