/**
 * What a host can add to a user's message besides files: the working tree's git changes, the
 * active terminal's last output, and the editor's one-line context (active file, visible range,
 * selection). Each is optional; a mention of what the host cannot give is answered with a note.
 */
export interface ContextSources {
  /** `git diff` and `git diff --staged` of the workspace folder `root` (text), or undefined when it is not a git repository. */
  gitChanges?(root: string): Promise<string | undefined>;
  /** The last command's output in the active terminal, or undefined when none is known. */
  terminalOutput?(): Promise<string | undefined>;
  /** `@selection`: the active editor's file (absolute) and selected lines, whatever the automatic-context setting; undefined without a selection. */
  activeSelection?(): Promise<{ path: string; lines: LineSpan } | undefined>;
  /** The active editor's file (absolute) with its visible lines and selection; undefined when none is active or the setting is off. */
  editorContext?(): Promise<EditorContext | undefined>;
}

export interface LineSpan {
  start: number;
  end: number;
}

export interface EditorContext {
  path: string;
  visible?: LineSpan;
  /** Absent when the selection is empty (just a cursor). */
  selection?: LineSpan;
}
