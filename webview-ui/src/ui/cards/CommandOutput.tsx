/**
 * A failed command's output on its card: its last lines, where test runners and compilers put
 * the verdict (`190 !== 180`, `1 failing`), with the earlier lines folded above them (the head of
 * a long failure is setup noise).
 */
import { LazyDetails } from '../LazyDetails';

export function FailedOutput({ text }: { text: string }) {
  const lines = text.trimEnd().split('\n');
  // 15 lines shown; a head of one or two lines is not worth folding.
  const head = lines.length > 17 ? lines.length - 15 : 0;
  return (
    <div data-output="tail">
      {head > 0 && <LazyDetails summary={`${head} earlier lines`} render={() => <pre class="output-head">{lines.slice(0, head).join('\n')}</pre>} />}
      <pre class="output-tail">{lines.slice(head).join('\n')}</pre>
    </div>
  );
}
