import { accessSync, constants } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { isInside } from '../fs/safe-path';

// Programs the host itself runs on project content (git) are looked up once, at start, in
// directories the agent's shells cannot plant a program in: the system's own first, then the
// host's PATH without relative entries, temp directories, anything under the user's home (a
// shell with the default write scope can write there) or any node_modules. A `git` that a shell
// or a cloned repository put on the way is never the one the host runs.

/** Where system programs live; writable by root only on any sane install. */
export const SYSTEM_PATH = [
  '/usr/local/sbin',
  '/usr/local/bin',
  '/usr/sbin',
  '/usr/bin',
  '/sbin',
  '/bin',
];

function plantable(dir: string, home: string): boolean {
  if (!isAbsolute(dir)) return true;
  if (dir.split('/').includes('node_modules')) return true;
  const temps = [tmpdir(), '/tmp', '/var/tmp', '/dev/shm'];
  return isInside(home, dir) || temps.some((t) => isInside(t, dir));
}

/** The directories a host tool is looked up in, in order. */
export function hostToolDirs(pathEnv: string | undefined, home: string = homedir()): string[] {
  const extra = (pathEnv ?? '').split(delimiter).filter((d) => d && !plantable(d, home));
  return [...new Set([...SYSTEM_PATH, ...extra])];
}

/** The absolute path of `name` in hostToolDirs, or null when it is not installed there. */
export function resolveHostTool(
  name: string,
  pathEnv: string | undefined = process.env.PATH,
  home?: string,
): string | null {
  for (const dir of hostToolDirs(pathEnv, home)) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}
