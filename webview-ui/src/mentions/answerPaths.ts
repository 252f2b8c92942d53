/**
 * Which inline code in a model's answer is a workspace path to link to the editor: a relative
 * path with a file name, optionally `:line` or `:start-end`. Without a folder or a line, only
 * common source and document extensions count (`cart.ts` yes, `console.log` no).
 */
const PATH = /^(?:\.{1,2}\/)?[\w@.-]+(?:\/[\w@.-]+)*\.([A-Za-z][A-Za-z0-9]{0,7})(:\d+(?:-\d+)?)?$/;
const EXTENSIONS = new Set('ts tsx js jsx mjs cjs json md py go rs java kt c h cc cpp hpp cs css scss less html vue svelte yml yaml toml sh rb php swift sql txt xml gradle'.split(' '));

export function isAnswerPath(text: string): boolean {
  const m = PATH.exec(text);
  if (!m || text.length > 300) return false;
  return text.includes('/') || m[2] !== undefined || EXTENSIONS.has(m[1]!.toLowerCase());
}
