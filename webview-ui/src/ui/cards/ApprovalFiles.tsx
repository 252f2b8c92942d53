import { DiffStat } from './DiffStat';
import type { ApprovalInfo } from '../../../../src/protocol';
import { visibleLine } from '../visibleText';

/** A change to several files approved as one (a rename): every file it touches, with its +N −M. */
export function ApprovalFiles({ files }: { files: NonNullable<ApprovalInfo['files']> }) {
  return (
    <ul class="approval-files" aria-label={`${files.length} files change`}>
      {files.map((f) => (
        <li key={f.path}>
          <code class="file">{visibleLine(f.path)}</code>{' '}
          <DiffStat added={f.added} removed={f.removed} />
        </li>
      ))}
    </ul>
  );
}
