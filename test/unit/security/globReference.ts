/**
 * The straightforward glob → RegExp translation that `globMatcher` (src/core/tools/glob.ts)
 * replaced: correct but backtracking, so exponential on hostile globs. Kept here only as the
 * reference the linear-time matcher is compared against; `globMatcher` mirrors it case for case.
 */

function translate(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slashAfter = glob[i + 2] === '/';
        const atSegmentStart = i === 0 || glob[i - 1] === '/';
        if (atSegmentStart && slashAfter) {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i += 1;
        }
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) re += '\\[';
      else {
        let body = glob.slice(i + 1, close);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        re += `[${body.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (c === '{') {
      // Find the matching brace, splitting on top-level commas.
      let depth = 0;
      let j = i;
      const parts: string[] = [];
      let start = i + 1;
      for (; j < glob.length; j++) {
        if (glob[j] === '{') depth++;
        else if (glob[j] === '}') {
          depth--;
          if (depth === 0) break;
        } else if (glob[j] === ',' && depth === 1) {
          parts.push(glob.slice(start, j));
          start = j + 1;
        }
      }
      if (j >= glob.length) re += '\\{';
      else {
        parts.push(glob.slice(start, j));
        re += `(?:${parts.map(translate).join('|')})`;
        i = j;
      }
    } else re += c.replace(/[.+^$()|\\\]]/g, '\\$&');
  }
  return re;
}

/** The glob as a RegExp. Backtracking: the oracle only, never for globs from the model. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${translate(glob)}$`);
}
