import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * VS Code ships ripgrep; use it so `search` is fast without anything installed. Its place moved
 * between releases (asar-unpacked in desktop builds, plain node_modules in server builds), so try
 * both, then `rg` on PATH. Returns undefined when there is none (the core then uses its JS search).
 */
export function findRipgrep(appRoot: string, envPath = process.env.PATH ?? ''): string | undefined {
  const exe = process.platform === 'win32' ? 'rg.exe' : 'rg';
  const candidates = [
    path.join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', exe),
    path.join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', exe),
    path.join(appRoot, 'node_modules', 'vscode-ripgrep', 'bin', exe),
    path.join(appRoot, 'node_modules.asar.unpacked', 'vscode-ripgrep', 'bin', exe),
  ];
  for (const dir of envPath.split(path.delimiter)) if (dir) candidates.push(path.join(dir, exe));
  return candidates.find(isExecutable);
}

function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}
