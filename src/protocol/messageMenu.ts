import * as z from 'zod';

/**
 * What the chat's native context menu hands a command about the message it was opened on (the
 * webview's `data-vscode-context` on a message card, merged by VS Code with the webview's id). It
 * comes from the webview, so it is checked like any of its messages: only the card's id is taken,
 * and the host finds the card itself (never trusting text from the webview).
 */
export const MessageMenuContext = z.object({
  webviewSection: z.literal('message'),
  cardId: z.string().min(1).max(200),
});
export type MessageMenuContext = z.infer<typeof MessageMenuContext>;

