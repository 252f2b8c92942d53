import type { Card } from '../../../src/protocol';

/**
 * A payload the webview could not understand, kept as text so the user sees *something*:
 * unknown or unparsable payloads render as plain text, never a blank panel.
 */
export interface RawCard {
  kind: 'raw';
  id: string;
  text: string;
  error: string;
  ts: number;
}

export type ChatCard = Card | RawCard;
