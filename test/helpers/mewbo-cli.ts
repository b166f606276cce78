import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The built `mewbo` CLI run as a user runs it: its own process, an environment built from
// scratch (so the developer's keys and $MEWBO_HOME never leak in), output collected, and a
// deadline so a command that never ends fails its test instead of hanging the suite.

export const MEWBO_CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** A command that runs longer than this fails the test. */
const CLI_TIMEOUT_MS = 30_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** JSON lines of `mewbo run`: one event a line. */
export function jsonLines<T>(stdout: string): T[] {
  return stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

export function runMewbo(
  args: string[],
  opts: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MEWBO_CLI, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH, OLLAMA_BASE_URL: 'http://127.0.0.1:9', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mewbo ${args.join(' ')} did not exit: ${err}`));
    }, opts.timeoutMs ?? CLI_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: out, stderr: err });
    });
  });
}
