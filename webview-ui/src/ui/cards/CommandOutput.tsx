/**
 * A command's output on its card. A failed command shows its last lines, where test runners and
 * compilers put the verdict (`190 !== 180`, `1 failing`), with the earlier lines folded above them:
 * the head of a long failure is setup noise. Other results read from the top.
 */
import { useState } from 'preact/hooks';

/** Lines of a failure shown without opening anything. */
export const TAIL_LINES = 15;

/** The output split into the folded head and the tail shown (no head when it all fits). */
export function splitTail(text: string, keep = TAIL_LINES): { head: string; tail: string; headLines: number } {
  const lines = text.replace(/\n+$/, '').split('\n');
  if (lines.length <= keep + 2) return { head: '', tail: lines.join('\n'), headLines: 0 };
  return { head: lines.slice(0, -keep).join('\n'), tail: lines.slice(-keep).join('\n'), headLines: lines.length - keep };
}

export function FailedOutput({ text }: { text: string }) {
  const { head, tail, headLines } = splitTail(text);
  const [showHead, setShowHead] = useState(false);
  return (
    <div class="failed-output" data-output="tail">
      {headLines > 0 && (
        <button type="button" class="link output-head-toggle" aria-expanded={showHead} onClick={() => setShowHead(!showHead)}>
          {showHead ? 'Hide' : 'Show'} {headLines} earlier line{headLines === 1 ? '' : 's'}
        </button>
      )}
      {showHead && <pre class="output-head">{head}</pre>}
      <pre class="output-tail">{tail}</pre>
    </div>
  );
}
