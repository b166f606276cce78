import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Integration tests drive the built `mewbo` CLI (dist/cli.js) as a user would; build it once.
export default function setup(): void {
  if (process.env.MEWBO_SKIP_BUILD) return;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['build/build.mjs', '--node-only'], {
    cwd: root,
    stdio: 'inherit',
  });
}
