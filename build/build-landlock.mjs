// Compiles the shell launcher (electron/host/sandbox/*.c: landlock-launcher.c and its parts) into
// build/landlock/mewbo-landlock with gcc. Linux only; without gcc the build goes on and the app
// reports the sandbox as unavailable (shells refused while agent.shell_sandbox is on).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = `${root}/electron/host/sandbox`;
const files = readdirSync(folder).filter((f) => /\.[ch]$/.test(f));
const sources = files.filter((f) => f.endsWith('.c')).map((f) => `${folder}/${f}`);
const output = `${root}/build/landlock/mewbo-landlock`;

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return -1;
  }
}

export function buildLandlock() {
  if (process.platform !== 'linux') return;
  const newest = Math.max(...files.map((f) => mtime(`${folder}/${f}`)));
  if (mtime(output) >= newest) return;
  mkdirSync(`${root}/build/landlock`, { recursive: true });
  try {
    execFileSync(
      'gcc',
      ['-O2', '-Wall', '-Wextra', '-Werror', '-std=gnu11', '-o', output, ...sources],
      { stdio: 'inherit' },
    );
  } catch (err) {
    console.warn(
      `[build] could not compile the shell launcher (${err.message}); shells stay refused while agent.shell_sandbox is on`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildLandlock();
