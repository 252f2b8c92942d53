/**
 * Scripted models for eval tests (answers computed from each request; see ScriptedServer's `respond`):
 *  - `referenceModel`: makes each task's reference change, found by the task's prompt in the
 *    conversation — as the Planner a plan with one step per reference file, as the Reviewer "ok",
 *    as the Actor the file of the step it is asked to do (or every file, in the act flow);
 *  - `nonsenseModel`: answers every request with the same words and calls no tool.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ScriptStep } from './scriptedServer';

export interface ReferenceTask {
  prompt: string;
  /** Path (relative to the repository) → the file's content after the change. */
  files: Record<string, string>;
  /** Those of the files the repository has already (read before they are written, as the tools require). */
  existing: string[];
}

/** The reference change of a task folder: its prompt and the files of its `reference` folder. */
export function referenceOf(taskDir: string): ReferenceTask {
  const spec = JSON.parse(fs.readFileSync(path.join(taskDir, 'task.json'), 'utf8'));
  const files: Record<string, string> = {};
  const root = path.join(taskDir, spec.reference ?? 'reference');
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const abs = path.join(dir, e.name);
      if (e.isDirectory()) walk(abs);
      else files[path.relative(root, abs).split(path.sep).join('/')] = fs.readFileSync(abs, 'utf8');
    }
  };
  walk(root);
  const exists = (f: string) =>
    typeof spec.repo === 'object'
      ? spawnSync('git', ['cat-file', '-e', `${spec.repo.ref}:${f}`], { cwd: path.resolve(taskDir, spec.repo.git) }).status === 0
      : fs.existsSync(path.join(taskDir, spec.repo ?? 'repo', f));
  return { prompt: spec.prompt, files, existing: Object.keys(files).filter(exists) };
}

const text = (t: string): ScriptStep => ({ type: 'text', text: t });
const contentOf = (m: any): string => (typeof m?.content === 'string' ? m.content : Array.isArray(m?.content) ? m.content.map((p: any) => p.text ?? '').join('') : '');

/** Which task a request is about: the one whose prompt the conversation's user messages hold. */
function taskOf(body: any, tasks: readonly ReferenceTask[]): ReferenceTask | undefined {
  const said = (body.messages ?? []).filter((m: any) => m.role === 'user').map(contentOf).join('\n');
  return tasks.find((t) => said.includes(t.prompt.trim()));
}

/** `tasks` may be a function: read at each request (task folders an eval writes as it starts, --from-git). */
export function referenceModel(given: readonly ReferenceTask[] | (() => readonly ReferenceTask[])): (body: any) => ScriptStep {
  return (body) => {
    const tasks = typeof given === 'function' ? given() : given;
    const tools: string[] = (body.tools ?? []).map((t: any) => t.function?.name);
    const messages: any[] = body.messages ?? [];
    const last = messages[messages.length - 1];
    if (body.response_format?.json_schema?.name === 'tandem_review' || /Reviewer/.test(contentOf(messages[0])) && !tools.length) {
      return { type: 'json', value: { verdict: 'ok', reasons: ['The plan makes the change asked for.'], concerns: [] } };
    }
    const task = taskOf(body, tasks);
    if (!task) return text('I cannot tell which task this is.');
    const files = Object.keys(task.files).sort();
    if (tools.includes('propose_plan')) {
      if (last?.role === 'tool') return text('The plan is proposed.');
      return {
        type: 'tool_calls',
        calls: [{
          name: 'propose_plan',
          arguments: {
            format_version: '1.0',
            goal: task.prompt.split('\n')[0]!.slice(0, 200),
            steps: files.map((f, i) => ({ step_number: i + 1, action: `Write ${f} as the change needs it`, reason: 'the change asked for', tools_needed: ['write_file'], estimated_time: '1 min', files: [f], commands: [], check: `test -f ${f}` })),
            estimated_total_time: `${files.length} min`,
            risks: [],
            prerequisites: [],
          },
        }],
      };
    }
    const asked = messages.filter((m) => m.role === 'user').map(contentOf);
    const step = /Do step (\d+) of/.exec(asked[asked.length - 1] ?? '')?.[1];
    const which = step ? [files[Number(step) - 1]!].filter(Boolean) : files;
    const lastCalls: string[] = ([...messages].reverse().find((m) => m.role === 'assistant')?.tool_calls ?? []).map((c: any) => c.function?.name);
    if (last?.role === 'tool' && lastCalls.includes('write_file')) return text('Done.');
    const toRead = which.filter((f) => task.existing.includes(f));
    if (toRead.length && !(last?.role === 'tool' && lastCalls.includes('read_file'))) {
      return { type: 'tool_calls', calls: toRead.map((f) => ({ name: 'read_file', arguments: { path: f } })) };
    }
    return { type: 'tool_calls', calls: which.map((f) => ({ name: 'write_file', arguments: { path: f, content: task.files[f]! } })) };
  };
}

export function nonsenseModel(words = 'Purple elephants hum quietly in the teapot.'): (body: any) => ScriptStep {
  return () => text(words);
}
