/** "+3 −1" of a change, said in words to a screen reader; nothing when neither count is known. */
export function DiffStat({ added, removed }: { added?: number; removed?: number }) {
  if (added === undefined && removed === undefined) return null;
  return (
    <span class="diffstat" aria-label={`${added ?? 0} lines added, ${removed ?? 0} removed`}>
      <span class="added">+{added ?? 0}</span> <span class="removed">−{removed ?? 0}</span>
    </span>
  );
}
