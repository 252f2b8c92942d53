/**
 * Elision markers: the lines models write in place of code they mean to keep ("// ... existing
 * code ...", "# ... rest unchanged ...", "/* ... *\/", a bare "..."). Recognising one is only half the
 * rule; whether a marker-looking line is taken as a marker is decided by the matcher (a line the
 * file really has, such as Python's `...` body, is code).
 */

/** Comment openers and closers of the common languages, outermost first. */
const OPENERS = ['{/*', '<!--', '/*', '//', '--', '#', ';;', ';', '%', "'"];
const CLOSERS = ['*/}', '-->', '*/'];

const DOTS = /(\.\.\.|…)/;

/** Wordings that say "unchanged code here" without dots; short and whole, so a real comment rarely matches. */
const PHRASES = [
  /^(the )?(rest|remainder) of (the |this )?[\w ]{0,30}?(is |are |stays? |remains? )?(unchanged|the same|as before|omitted|elided)?$/i,
  /^(keep |keeps |kept )?(the )?(existing|unchanged|previous|original|other|remaining|same) (code|lines?|content|methods|functions|imports|implementation|logic|body|cases|tests|fields|properties|config|configuration|keys|entries|items|definitions|statements|declarations|code below|code above)( here| below| above| unchanged| as before| as is| stays? the same| remains?( the same| unchanged)?| is unchanged| are unchanged)?$/i,
  /^(unchanged|no changes?|same as before|as before)( here| below| above| code| lines)?$/i,
  /^(code|lines|content) (omitted|elided|unchanged)( for brevity)?$/i,
];

/** The text inside a comment wrapper, or undefined when the line carries no comment syntax. */
function commentBody(t: string): string | undefined {
  let s = t;
  let wrapped = false;
  for (const o of OPENERS) {
    if (s.startsWith(o)) {
      s = s.slice(o.length);
      wrapped = true;
      break;
    }
  }
  for (const c of CLOSERS) {
    if (s.endsWith(c)) {
      s = s.slice(0, -c.length);
      wrapped = true;
      break;
    }
  }
  return wrapped ? s.trim() : undefined;
}

/** True for a line that, taken by itself, reads as "code left out here". */
export function looksLikeElisionMarker(line: string): boolean {
  const t = line.trim();
  if (t === '') return false;
  const bare = t.replace(/^[[(]\s*/, '').replace(/\s*[\])]$/, '');
  if (bare === '...' || bare === '…') return true;
  const body = commentBody(t);
  if (body === undefined) return false;
  if (body === '' || body.length > 80) return false;
  const inner = body.replace(/^[[(]\s*/, '').replace(/\s*[\])]$/, '');
  if (inner === '...' || inner === '…') return true;
  if (DOTS.test(inner)) {
    // Words around the dots, nothing that looks like code (quotes, operators, calls with arguments).
    const words = inner.replace(/\.\.\.|…/g, ' ').trim();
    return words === '' || /^[A-Za-z(][A-Za-z0-9 ,'’:()/-]*$/.test(words);
  }
  const plain = inner.replace(/[.:!]+$/, '').trim();
  return PHRASES.some((p) => p.test(plain));
}
