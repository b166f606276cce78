// Compiles the shell launcher (electron/host/sandbox/landlock-launcher.c) into
// build/landlock/mewbo-landlock with gcc. Linux only; without gcc the build goes on and the app
// reports the sandbox as unavailable (shells refused while agent.shell_sandbox is on).
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = `${root}/electron/host/sandbox/landlock-launcher.c`;
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
  if (mtime(output) >= mtime(source)) return;
  mkdirSync(`${root}/build/landlock`, { recursive: true });
  try {
    execFileSync(
      'gcc',
      ['-O2', '-Wall', '-Wextra', '-Werror', '-std=gnu11', '-o', output, source],
      { stdio: 'inherit' },
    );
  } catch (err) {
    console.warn(
      `[build] could not compile the shell launcher (${err.message}); shells stay refused while agent.shell_sandbox is on`,
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildLandlock();
