import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './command';

/** The `--root DIR` of `mewbo tool` and `mewbo mcp`: an existing directory, default the cwd. */
export function rootOption(value: string | undefined): string {
  const root = resolve(value ?? process.cwd());
  let isDir: boolean;
  try {
    isDir = statSync(root).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new UsageError(`--root ${root}: not an existing directory`);
  return root;
}
