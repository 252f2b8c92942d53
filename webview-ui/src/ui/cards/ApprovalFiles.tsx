import type { ApprovalInfo } from '../../../../src/protocol';
import { visibleLine } from '../visibleText';

/** A change to several files approved as one (a rename): every file it touches, with its +N −M. */
export function ApprovalFiles({ files }: { files: NonNullable<ApprovalInfo['files']> }) {
  return (
    <ul class="approval-files" aria-label={`${files.length} files change`}>
      {files.map((f) => (
        <li key={f.path}>
          <code class="file">{visibleLine(f.path)}</code>{' '}
          <span class="diffstat" aria-label={`${f.added} lines added, ${f.removed} removed`}>
            <span class="added">+{f.added}</span> <span class="removed">−{f.removed}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
