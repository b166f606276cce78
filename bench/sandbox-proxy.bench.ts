import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../electron/host/config/load-config';
import { homePaths } from '../electron/host/config/paths';
import type { AppConfig } from '../electron/host/config/schema';
import { findInstallRoot, findLauncher, probeLandlock } from '../electron/host/sandbox/launcher';
import { ShellService } from '../electron/host/shells/shell-service';
import { tempDir } from '../test/helpers/temp';
import { report } from './report';

// What the sandbox of issue 25 costs a shell.
//
// Start-up: a confined shell under today's defaults (write scope "project", the network confined
// to its session's egress proxy, the project's policy files held read-only by mounts in a namespace of the
// command's own) against the same shell as it started before issue 25 (write scope
// "unrestricted", network open, nothing held). Both go through the same ShellService, the same
// launcher and spawn path, and run the same `echo ready` until it has exited and its output is
// read. The reference is the previous start-up measured with today's code: for a project without
// policy files, under the unrestricted scope and with no network grant, the launcher is sent
// grants only, exactly the records it was sent before part 1. What differs is only what issue 25
// added: more grants (caches, devices), the "net" and "port" records with the seccomp listener
// handed to the supervisor, and the mount namespace with its pins and holds. Measured alternately,
// medians, so a busy neighbour hits both sides alike.

const RUNS = 21;
const WARMUP = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const launcher = findLauncher(findInstallRoot(process.cwd()));
const probe = launcher ? await probeLandlock(launcher) : null;
if (!probe || probe.abi < 1 || probe.networkGap || probe.mountGap) {
  console.log(
    `sandbox-proxy: skipped (${probe ? (probe.reason ?? probe.networkGap ?? probe.mountGap) : 'launcher not built: npm run build'})`,
  );
  process.exit(0);
}

/** A project holding every policy file a trusted project may have, in a real git repository. */
function projectWithPolicyFiles(dir: string): void {
  mkdirSync(join(dir, '.mewbo'), { recursive: true });
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(join(dir, '.mewbo', 'settings.json'), '{}\n');
  writeFileSync(join(dir, '.claude', 'settings.json'), '{}\n');
  writeFileSync(join(dir, '.mcp.json'), '{"mcpServers":{}}\n');
  execFileSync('git', ['init', '-q', dir]);
}

const t = tempDir('mewbo-bench-sandbox-');
const services: ShellService[] = [];
try {
  const base = realpathSync(t.dir);
  const paths = homePaths({ MEWBO_HOME: join(base, 'home') });
  for (const d of [paths.configDir, paths.sessionsDir, paths.stateDir])
    mkdirSync(d, { recursive: true });

  /** `run()` starts one shell in `root` and waits for its output. */
  /** `network` undefined: the app's default, the session's own egress proxy; null: open. */
  const side = (root: string, config: AppConfig, network?: null) => {
    mkdirSync(root, { recursive: true });
    const service = new ShellService({
      paths,
      config: () => config,
      log: () => {},
      network,
    });
    services.push(service);
    const shells = service.forSession('s_bench01');
    return async (): Promise<number> => {
      const t0 = performance.now();
      const r = await shells.run({
        command: 'echo ready',
        cwd: root,
        root,
        config,
        tty: false,
        timeoutMs: 30_000,
      });
      const ms = performance.now() - t0;
      if ('kind' in r) throw new Error(`spawn refused: ${r.message}`);
      if (r.result.text !== 'ready\n') throw new Error(`unexpected output: ${r.result.text}`);
      return ms;
    };
  };

  const now = join(base, 'now');
  const before = join(base, 'before');
  mkdirSync(now);
  projectWithPolicyFiles(now);
  const runNow = side(now, parseConfig({ projects: { now: { path: now } } }));
  const runBefore = side(
    before,
    parseConfig({
      projects: { before: { path: before } },
      agent: { shell_write_scope: 'unrestricted' },
    }),
    null,
  );

  for (let i = 0; i < WARMUP; i++) {
    await runNow();
    await runBefore();
  }
  const nowMs: number[] = [];
  const beforeMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    nowMs.push(await runNow());
    beforeMs.push(await runBefore());
  }
  report(
    'confined shell start-up, issue 25 defaults (goal <= 1.1)',
    median(nowMs),
    'ms',
    median(beforeMs),
    'ms',
    'the same shell as confined before issue 25',
  );
} finally {
  for (const s of services) await s.dispose();
  t.cleanup();
}
