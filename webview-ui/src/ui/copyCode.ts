/** Click delegation for the Copy buttons inside rendered markdown (the HTML is a string, not components). */
export function copyCodeBlock(e: MouseEvent): void {
  const btn = (e.target as Element | null)?.closest?.('button[data-copy]') as HTMLButtonElement | null;
  if (!btn) return;
  const code = btn.closest('.code-block')?.querySelector('code')?.textContent ?? '';
  void copyText(code).then((ok) => {
    btn.textContent = ok ? 'Copied' : 'Copy failed';
    setTimeout(() => (btn.textContent = 'Copy'), 1500);
  });
}

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Some webview hosts deny the async clipboard; the selection + execCommand path still works there.
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.className = 'offscreen';
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  }
}
