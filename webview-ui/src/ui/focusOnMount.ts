/**
 * A ref that focuses its element when it appears (an inline confirmation), so keyboard users land
 * on it. One stable function: a new callback per render would refocus on every streamed delta.
 */
export function focusOnMount(el: HTMLElement | null): void {
  el?.focus();
}
