import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawn as spawnPty } from 'node-pty';
import { parseConfig } from '../electron/host/config/load-config';
import { homePaths } from '../electron/host/config/paths';
import { ShellService } from '../electron/host/shells/shell-service';
import { report } from './report';

// 256 MiB of output through a background shell (PTY, launcher, Landlock, ring buffer, batched
// frames, flow control) to a subscribed consumer that acks each frame a turn later, as a client
// would; the reference is raw node-pty reading the same command in the same run. Each side runs
// in a fresh process so its peak RSS is its own.

const BYTES = 256 * 1024 * 1024;
const LINE = 'the quick brown fox jumps over the lazy dog 0123456789';
const COMMAND = `yes '${LINE}' | head -c ${BYTES}`;
/** What a terminal delivers: every newline becomes CR LF. */
const EXPECTED_CHARS = BYTES + Math.floor(BYTES / (LINE.length + 1));

interface Result {
  ms: number;
  chars: number;
  maxRssMiB: number;
  bufferChars?: number;
}

async function raw(): Promise<Result> {
  const t0 = performance.now();
  let chars = 0;
  await new Promise<void>((resolve) => {
    const pty = spawnPty('/bin/bash', ['-c', COMMAND], {
      cols: 120,
      rows: 30,
      cwd: tmpdir(),
      env: process.env as Record<string, string>,
    });
    pty.onData((d) => (chars += d.length));
    pty.onExit(() => resolve());
  });
  return { ms: performance.now() - t0, chars, maxRssMiB: process.resourceUsage().maxRSS / 1024 };
}

async function managed(): Promise<Result> {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mewbo-bench-shells-')));
  const root = join(dir, 'project');
  mkdirSync(join(dir, 'home', 'configs'), { recursive: true });
  mkdirSync(root);
  const config = parseConfig({});
  const service = new ShellService({
    paths: homePaths({ MEWBO_HOME: join(dir, 'home') }),
    config: () => config,
    log: () => {},
  });
  try {
    const manager = service.forSession('s_bench01');
    const t0 = performance.now();
    const shell = await manager.start({ command: COMMAND, cwd: root, root, config, tty: true });
    if ('kind' in shell) throw new Error(shell.message);
    let chars = 0;
    await new Promise<void>((resolve) => {
      const sub = manager.subscribe(shell.id, 0, (frame) => {
        if (frame.type === 'shell_output') {
          chars += frame.data.length;
          const n = frame.data.length;
          setImmediate(() => sub.ack(n));
        } else if (frame.shell.status !== 'running') {
          resolve();
        }
      })!;
    });
    return {
      ms: performance.now() - t0,
      chars,
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
      bufferChars: config.shells.buffer_chars,
    };
  } finally {
    await service.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

function inChild(self: string, mode: string): Result {
  const r = spawnSync(process.execPath, [self, mode], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`${mode} run failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Result;
}

const mode = process.argv[2];
if (mode === 'raw' || mode === 'managed') {
  const result = mode === 'raw' ? await raw() : await managed();
  console.log(JSON.stringify(result));
} else {
  // The children re-run this bundle; a private copy beside it (same node_modules) survives a
  // concurrent bench run clearing the shared bundle directory.
  const self = join(dirname(process.argv[1]!), `..`, `shells-bench-${process.pid}.mjs`);
  copyFileSync(process.argv[1]!, self);
  let rawRun: Result;
  let ours: Result;
  try {
    rawRun = inChild(self, 'raw');
    ours = inChild(self, 'managed');
  } finally {
    rmSync(self, { force: true });
  }
  const mbps = (r: Result) => r.chars / (1024 * 1024) / (r.ms / 1000);
  report(
    'shells throughput, 256 MiB through a background shell to an acking subscriber',
    mbps(ours),
    'MiB/s',
    mbps(rawRun),
    'MiB/s',
    'raw node-pty',
  );
  report(
    'shells peak RSS of that host process',
    ours.maxRssMiB,
    'MiB',
    rawRun.maxRssMiB,
    'MiB',
    'raw node-pty',
  );
  console.log(
    `shells ring buffer: ${ours.bufferChars!.toLocaleString('en-US')} characters (${((ours.bufferChars! * 2) / (1024 * 1024)).toFixed(1)} MiB as UTF-16) per shell`,
  );
  const n = (x: number) => x.toLocaleString('en-US');
  console.log(
    `shells characters delivered: ${n(ours.chars)} (raw node-pty: ${n(rawRun.chars)}; the terminal wrote ${n(EXPECTED_CHARS)})`,
  );
}
