import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

/**
 * A <details> whose body is only built while it is open: a tool result or a file's contents can
 * be large, and collapsed content still costs DOM and layout on every visible card.
 */
export function LazyDetails({ summary, initiallyOpen = false, className, render }: {
  summary: ComponentChildren;
  initiallyOpen?: boolean;
  className?: string;
  render: () => ComponentChildren;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <details class={className} open={open} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>{summary}</summary>
      {open && render()}
    </details>
  );
}
