/**
 * Files that make code run by themselves — when the folder is opened, a shell enters it, git
 * commits, a package manager starts, or CI picks up a push — rather than when a person runs the
 * project's own code. An auto-approved "edit" to one of them is code execution the user never
 * approved (a `.vscode/tasks.json` task with `"runOn": "folderOpen"`, a `.envrc` direnv runs on
 * `cd`, a husky hook on the next commit, a workflow with the repository's secrets). So blanket
 * approval (`--approve edits|all`, `tandem.autoApprove.*`) never covers writing, creating or
 * deleting them: only a person approving that very change can, and headless they are refused.
 *
 * Deliberately NOT on the list: `package.json` scripts, `Makefile`, build and test files. They run
 * when a person runs the build or tests — exactly like the source files the agent edits anyway —
 * so guarding them would add prompts without closing a hole that edits to any source file leave open.
 * Nor `.gitattributes` / `.gitmodules` (filter and diff drivers, and submodule update commands, come
 * only from git config, which is protected) or `.nvmrc` / `.tool-versions` (they pick a version of
 * an installed tool and run nothing of their own).
 *
 * Paths are workspace-relative with `/`; compared as case-insensitive file systems see them
 * (`.VSCode`, `.vscode.` and `.vscode ` are `.vscode` on macOS/Windows), in any folder (nested
 * workspaces, monorepo packages, direnv in a subfolder).
 */

/** A folder anywhere on the path → why files under it are sensitive. */
const SENSITIVE_FOLDERS = new Map<string, string>(Object.entries({
  '.vscode': 'VS Code runs tasks, launch configurations and settings (interpreters, terminal profiles) from .vscode/, a task even on folder open',
  '.devcontainer': 'dev container definitions run commands (postCreateCommand, Dockerfile) when the folder is reopened in a container',
  '.idea': 'JetBrains IDEs run configurations and startup tasks from .idea/',
  '.husky': 'git runs husky hooks on commit and push',
  '.githooks': 'git runs hooks from this folder when core.hooksPath points at it',
  '.git': 'git runs hooks and obeys config from .git/',
  '.circleci': 'CI runs this configuration, with the repository\'s secrets, on push',
  '.buildkite': 'Buildkite runs these pipelines, with the repository\'s secrets, on push',
  '.hg': 'Mercurial runs hooks from .hg/hgrc',
  '.mise': 'mise runs hooks, tasks and env scripts from .mise/config.toml when a shell enters the folder',
}));

/** Two folders in a row anywhere on the path → why. */
const SENSITIVE_FOLDER_PAIRS = new Map<string, string>(Object.entries({
  '.github/workflows': 'GitHub Actions runs workflows, with the repository\'s secrets, on push',
  '.github/actions': 'GitHub Actions workflows run these actions, with the repository\'s secrets',
  '.config/mise': 'mise runs hooks, tasks and env scripts from .config/mise/ when a shell enters the folder',
}));

/** A file name anywhere → why. */
const SENSITIVE_FILES = new Map<string, string>(Object.entries({
  '.envrc': 'direnv runs .envrc when a shell enters the folder',
  '.npmrc': 'npm reads options from .npmrc that run code (node-options, script-shell) on every npm command',
  '.yarnrc': 'yarn reads options from .yarnrc that run code (yarn-path) on every yarn command',
  '.yarnrc.yml': 'yarn runs the file named by yarnPath/plugins in .yarnrc.yml on every yarn command',
  '.pnpmfile.cjs': 'pnpm runs .pnpmfile.cjs hooks on every install',
  '.pre-commit-config.yaml': 'pre-commit runs the hooks listed here on commit',
  'lefthook.yml': 'lefthook runs the hooks listed here on commit and push',
  '.lefthook.yml': 'lefthook runs the hooks listed here on commit and push',
  'lefthook.yaml': 'lefthook runs the hooks listed here on commit and push',
  '.lefthook.yaml': 'lefthook runs the hooks listed here on commit and push',
  'lefthook.json': 'lefthook runs the hooks listed here on commit and push',
  '.lefthook.json': 'lefthook runs the hooks listed here on commit and push',
  'lefthook.toml': 'lefthook runs the hooks listed here on commit and push',
  '.lefthook.toml': 'lefthook runs the hooks listed here on commit and push',
  'lefthook.jsonc': 'lefthook runs the hooks listed here on commit and push',
  '.lefthook.jsonc': 'lefthook runs the hooks listed here on commit and push',
  'lefthook-local.yml': 'lefthook runs the hooks listed here on commit and push',
  '.lefthook-local.yml': 'lefthook runs the hooks listed here on commit and push',
  'lefthook-local.yaml': 'lefthook runs the hooks listed here on commit and push',
  '.lefthook-local.yaml': 'lefthook runs the hooks listed here on commit and push',
  'lefthook-local.json': 'lefthook runs the hooks listed here on commit and push',
  '.lefthook-local.json': 'lefthook runs the hooks listed here on commit and push',
  'lefthook-local.toml': 'lefthook runs the hooks listed here on commit and push',
  '.lefthook-local.toml': 'lefthook runs the hooks listed here on commit and push',
  'lefthook-local.jsonc': 'lefthook runs the hooks listed here on commit and push',
  '.lefthook-local.jsonc': 'lefthook runs the hooks listed here on commit and push',
  '.gitlab-ci.yml': 'GitLab CI runs this pipeline, with the repository\'s secrets, on push',
  '.travis.yml': 'Travis CI runs this configuration, with the repository\'s secrets, on push',
  'azure-pipelines.yml': 'Azure Pipelines runs this pipeline, with the repository\'s secrets, on push',
  'azure-pipelines.yaml': 'Azure Pipelines runs this pipeline, with the repository\'s secrets, on push',
  'bitbucket-pipelines.yml': 'Bitbucket Pipelines runs this pipeline, with the repository\'s secrets, on push',
  '.drone.yml': 'Drone CI runs this pipeline, with the repository\'s secrets, on push',
  'jenkinsfile': 'Jenkins runs this pipeline, with the repository\'s secrets, on push',
  '.devcontainer.json': 'a dev container definition runs commands (postCreateCommand) when the folder is reopened in a container',
  'mise.toml': 'mise runs hooks, tasks and env scripts from mise.toml when a shell enters the folder or a tool starts',
  '.mise.toml': 'mise runs hooks, tasks and env scripts from .mise.toml when a shell enters the folder or a tool starts',
  'mise.local.toml': 'mise runs hooks and env scripts from mise.local.toml when a shell enters the folder',
  '.mise.local.toml': 'mise runs hooks and env scripts from .mise.local.toml when a shell enters the folder',
  'bunfig.toml': 'bun runs preload scripts named in bunfig.toml on every bun command',
  '.gitpod.yml': 'Gitpod runs the tasks in .gitpod.yml when a workspace starts',
  'rust-toolchain': 'rustup runs the toolchain named here (a path is any program) on every cargo command',
  'rust-toolchain.toml': 'rustup runs the toolchain named here (a path is any program) on every cargo command',
  '.gitpod.dockerfile': 'Gitpod builds and runs this image when a workspace starts',
  '.exrc': 'vim and Neovim (with exrc) run .exrc when started in the folder',
  '.nvimrc': 'Neovim (with exrc) runs .nvimrc when started in the folder',
  '.nvim.lua': 'Neovim (with exrc) runs .nvim.lua when started in the folder',
}));

/** A file in a folder of that name, anywhere → why. */
const SENSITIVE_FOLDER_FILES = new Map<string, string>(Object.entries({
  '.tandem/hooks.json': 'Tandem runs the commands in .tandem/hooks.json at every tool call once you trust the file (or name it with --hooks)',
  '.claude/settings.json': 'Claude Code runs the hooks in .claude/settings.json at every tool call',
  '.claude/settings.local.json': 'Claude Code runs the hooks in .claude/settings.local.json at every tool call',
  '.cargo/config.toml': 'cargo runs the runners, rustc wrappers and aliases .cargo/config.toml names on every cargo command',
  '.cargo/config': 'cargo runs the runners, rustc wrappers and aliases .cargo/config names on every cargo command',
  '.config/mise.toml': 'mise runs hooks, tasks and env scripts from it when a shell enters the folder or a tool starts',
}));

/** File name endings → why. */
const SENSITIVE_SUFFIXES = new Map<string, string>(Object.entries({
  '.code-workspace': 'a .code-workspace file holds VS Code settings, tasks and launch configurations like .vscode/',
}));

/** A segment as a case-insensitive file system sees it: `.VSCode.` is `.vscode`. */
const norm = (seg: string) => seg.toLowerCase().replace(/[. ]+$/, '');

/**
 * Why a change to `relPath` (workspace-relative, `/`-separated) could make code run by itself, or
 * undefined when it cannot.
 */
export function executionSensitiveReason(relPath: string): string | undefined {
  const segs = relPath.split(/[\\/]+/).map(norm).filter((s) => s !== '');
  if (!segs.length) return undefined;
  for (let i = 0; i < segs.length; i++) {
    const folderWhy = i < segs.length - 1 ? SENSITIVE_FOLDERS.get(segs[i]!) : undefined;
    if (folderWhy) return folderWhy;
    const pairWhy = i < segs.length - 2 ? SENSITIVE_FOLDER_PAIRS.get(`${segs[i]}/${segs[i + 1]}`) : undefined;
    if (pairWhy) return pairWhy;
  }
  const name = segs[segs.length - 1]!;
  const inFolderWhy = segs.length > 1 ? SENSITIVE_FOLDER_FILES.get(`${segs[segs.length - 2]}/${name}`) : undefined;
  if (inFolderWhy) return inFolderWhy;
  const fileWhy = SENSITIVE_FILES.get(name);
  if (fileWhy) return fileWhy;
  for (const [suffix, why] of SENSITIVE_SUFFIXES) if (name.endsWith(suffix)) return why;
  return undefined;
}
