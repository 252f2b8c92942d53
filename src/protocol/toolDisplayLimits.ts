/**
 * Caps for each field: a headline is one short line (a path, a pattern, a command), never file
 * contents. The host cuts longer text with `clampToolDisplay` before the card is sent.
 */
export const TOOL_DISPLAY_LIMITS = { title: 120, verb: 300, path: 4096, detail: 2000, tag: 120 } as const;
