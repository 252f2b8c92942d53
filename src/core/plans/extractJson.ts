/**
 * Finds the JSON object in a model's text answer, for endpoints without structured outputs.
 * Order: a fenced ```json block (the format the prompt asks for), any fenced block that parses,
 * then the outermost balanced {...} in the text (string-aware, so braces inside strings don't count).
 */
export type Extraction =
  | { ok: true; value: unknown; source: 'whole' | 'fenced' | 'braces' }
  | { ok: false; error: string };

export function extractJson(text: string): Extraction {
  const trimmed = text.trim();
  const whole = tryParse(trimmed);
  if (whole.ok && isObject(whole.value)) return { ok: true, value: whole.value, source: 'whole' };

  const fences = [...trimmed.matchAll(/```([a-zA-Z0-9_-]*)[ \t]*\r?\n([\s\S]*?)```/g)];
  const ordered = [...fences.filter((m) => m[1].toLowerCase() === 'json'), ...fences.filter((m) => m[1].toLowerCase() !== 'json')];
  let lastError: string | undefined;
  for (const m of ordered) {
    const r = tryParse(m[2].trim());
    if (r.ok && isObject(r.value)) return { ok: true, value: r.value, source: 'fenced' };
    if (!r.ok && m[1].toLowerCase() === 'json') lastError ??= `the \`\`\`json block is not valid JSON: ${r.error}`;
  }

  const span = outermostObject(trimmed);
  if (span) {
    const r = tryParse(span);
    if (r.ok && isObject(r.value)) return { ok: true, value: r.value, source: 'braces' };
    lastError ??= `the {...} in the answer is not valid JSON: ${r.ok ? 'not an object' : r.error}`;
  }
  return { ok: false, error: lastError ?? 'no JSON object found in the answer' };
}

function tryParse(s: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** The first '{' to its matching '}', skipping braces inside JSON strings; falls back to first '{' .. last '}'. */
function outermostObject(s: string): string | undefined {
  const start = s.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return s.slice(start, i + 1);
  }
  const end = s.lastIndexOf('}');
  return end > start ? s.slice(start, end + 1) : undefined;
}
