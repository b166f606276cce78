import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../electron/host/config/load-config';
import { homePaths } from '../electron/host/config/paths';
import type { AppConfig } from '../electron/host/config/schema';
import { addressClassifier } from '../electron/host/network/address-kind';
import { NetworkService } from '../electron/host/network/network-service';
import { findInstallRoot, findLauncher, probeLandlock } from '../electron/host/sandbox/launcher';
import { ShellService } from '../electron/host/shells/shell-service';
import type { ShellNetwork } from '../electron/host/shells/shell-network';
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
//
// Download: 256 MiB fetched by `curl` in a confined shell, through its session's egress proxy,
// against the same download by `curl` in an unconfined shell straight from the server, in the
// same run. The goal row goes through a CONNECT tunnel (`curl -p`), the path every HTTPS download
// takes; a second row, without a goal, has the proxy forward a plain HTTP request (it reads the
// answer's head and relays the body as read, as a tunnel does, judging each request). The server
// is a process of its own on 127.0.0.2, standing in for the internet (the address is classified
// public here, as the network tests do; its name is on the allowlist and resolved by a table).
// The figure is curl's own average speed over the transfer, from its first byte asked to its
// last received.
//
// Why the reference is fair: both sides fetch the same 256 MiB from the same server process with
// the same curl binary and the same flags (-sS -o /dev/null -w, the same figure read the same way),
// alternately in the same run, medians of each. They differ only in what issue 25 adds: the
// confined curl runs in the sandbox and goes through the proxy (`-p`, a name the proxy resolves
// from a table), the direct one runs unconfined with `--noproxy '*'` to the address itself (no
// DNS on either side). Each side's CPU seconds are read the same way, from the kernel's accounting
// of each process, so the breakdown printed below compares like with like.
//
// Who shares a core with whom is part of the fairness. Linux (sched_autogroup, on here and on the
// usual desktop kernels) shares a busy CPU between sessions first, then between the processes of
// each session. The app starts every shell as a session of its own (setsid), so curl has its own
// share on both sides; the host (here this process, in the app the main process) runs the proxy in
// its own session, as the app does. The server runs in a session of its own too: it stands for an
// origin on the internet, which never takes CPU from the app. It used to share this process's
// session, so on a busy machine the tunnel's server and proxy split one share while the direct
// download's server had that share alone (this process idles then), a cost no user meets: the
// same build read 0.61 and 0.67 that way against 0.77 and 0.96 this way, alternately, at load 23-25.
// The reference itself did not move (355-436 MiB/s both ways): only the tunnel stopped paying it.
//
// The floor: a third way fetches through bench/relay-floor.c, the least any relaying proxy does
// (read and write through a 1 MiB buffer, a thread per direction, in C, no policy), from an
// unconfined curl. On a quiet 2-core machine the copies a relay adds bound the ratio well below
// the goal whatever the proxy is written in (2026-12-05, load 0.5: the tunnel 0.54, this relay
// 0.55-0.63, a Node `socket.pipe` relay 0.20-0.33 of the direct download), so the tunnel is
// printed against the floor too: that ratio is what the proxy's own code costs.

const RUNS = 21;
const WARMUP = 3;
const DOWNLOAD_BYTES = 256 * 1024 * 1024;
/** Downloads each way, alternately; 7 so one run hit by a neighbour does not move the median. */
const DOWNLOAD_RUNS = 7;
const ORIGIN = { name: 'origin.bench', address: '127.0.0.2' };
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
  const side = (root: string, config: AppConfig, network?: ShellNetwork | null) => {
    mkdirSync(root, { recursive: true });
    const service = new ShellService({
      paths,
      config: () => config,
      log: () => {},
      network,
    });
    services.push(service);
    const shells = service.forSession('s_bench01');
    return async (command = 'echo ready'): Promise<{ ms: number; text: string }> => {
      const t0 = performance.now();
      const r = await shells.run({
        command,
        cwd: root,
        root,
        config,
        tty: false,
        timeoutMs: 120_000,
      });
      const ms = performance.now() - t0;
      if ('kind' in r) throw new Error(`spawn refused: ${r.message}`);
      return { ms, text: r.result.text };
    };
  };
  const startUp = (run: ReturnType<typeof side>) => async (): Promise<number> => {
    const { ms, text } = await run();
    if (text !== 'ready\n') throw new Error(`unexpected output: ${text}`);
    return ms;
  };

  const now = join(base, 'now');
  const before = join(base, 'before');
  mkdirSync(now);
  projectWithPolicyFiles(now);
  const runNow = startUp(side(now, parseConfig({ projects: { now: { path: now } } })));
  const runBefore = startUp(
    side(
      before,
      parseConfig({
        projects: { before: { path: before } },
        agent: { shell_write_scope: 'unrestricted' },
      }),
      null,
    ),
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

  const origin = await byteServer(ORIGIN.address, DOWNLOAD_BYTES);
  const floor = await relayFloor(base, ORIGIN.address, origin.port);
  const url = (host: string, port = origin.port) => `http://${host}:${port}/bytes`;
  // curl prints its average download speed (bytes/s) and how many bytes it got.
  // /usr/bin/time adds curl's own CPU seconds (user, system) on the line after.
  const curl = (args: string) =>
    `/usr/bin/time -f '%U %S' curl -sS -o /dev/null -w '%{speed_download} %{size_download}\\n' ${args} 2>&1`;
  const fetchedConfig = parseConfig({
    projects: { fetched: { path: join(base, 'fetched') } },
    sandbox: { network: { allow: [ORIGIN.name] } },
  });
  const classify = addressClassifier();
  const confined = side(
    join(base, 'fetched'),
    fetchedConfig,
    new NetworkService({
      config: () => fetchedConfig,
      configFile: paths.configFile,
      resolver: { lookup: async (name) => (name === ORIGIN.name ? [ORIGIN.address] : []) },
      addressKind: (a) => (a === ORIGIN.address ? 'public' : classify(a)),
    }),
  );
  const unconfined = side(join(base, 'direct'), parseConfig({}), null);
  /** CPU seconds of each party to the downloads made by one way, summed over its runs. */
  type Cpu = { server: number; curl: number; host: number };
  const cpu = new Map<number, Cpu>();
  const speed = async (
    way: number,
    run: ReturnType<typeof side>,
    args: string,
  ): Promise<number> => {
    const server0 = origin.cpuSeconds();
    const host0 = process.cpuUsage();
    const { text } = await run(curl(args));
    const host = process.cpuUsage(host0);
    const [speedLine, timeLine] = text.trim().split('\n');
    const [bytesPerS, size] = speedLine!.split(' ').map(Number);
    if (size !== DOWNLOAD_BYTES || !bytesPerS) throw new Error(`download failed: ${text}`);
    const [user, system] = timeLine!.split(' ').map(Number);
    const c = cpu.get(way) ?? { server: 0, curl: 0, host: 0 };
    c.server += origin.cpuSeconds() - server0;
    c.curl += user! + system!;
    c.host += (host.user + host.system) / 1e6;
    cpu.set(way, c);
    return bytesPerS / (1024 * 1024);
  };
  try {
    const tunnelled: number[] = [];
    const forwarded: number[] = [];
    const direct: number[] = [];
    const relayed: number[] = [];
    const ways = [
      () => speed(0, confined, `-p ${url(ORIGIN.name)}`),
      () => speed(1, confined, url(ORIGIN.name)),
      () => speed(2, unconfined, `--noproxy '*' ${url(ORIGIN.address)}`),
    ];
    if (floor)
      ways.push(() => speed(3, unconfined, `--noproxy '*' ${url('127.0.0.1', floor.port)}`));
    for (const way of ways) await way();
    cpu.clear();
    for (let i = 0; i < DOWNLOAD_RUNS; i++) {
      tunnelled.push(await ways[0]!());
      forwarded.push(await ways[1]!());
      direct.push(await ways[2]!());
      if (ways[3]) relayed.push(await ways[3]());
    }
    const reference = 'an unconfined curl straight from the server';
    report(
      '256 MiB download by a confined curl through its session proxy (goal >= 0.8)',
      median(tunnelled),
      'MiB/s',
      median(direct),
      'MiB/s',
      reference,
    );
    // Why the tunnel row sits where it does: every byte the proxy relays is copied twice more
    // (out of the destination's socket, into the client's), on top of the server's and curl's
    // one copy each. On 2 cores the transfer cannot take less wall time than half the CPU time
    // of everyone in it, so the CPU seconds bound the ratio whatever the relay's shape.
    const per = (way: number) => {
      const c = cpu.get(way)!;
      return {
        server: c.server / DOWNLOAD_RUNS,
        curl: c.curl / DOWNLOAD_RUNS,
        host: c.host / DOWNLOAD_RUNS,
      };
    };
    const [t, d] = [per(0), per(2)];
    const total = (c: Cpu) => c.server + c.curl + c.host;
    console.log(
      `  CPU seconds per download: tunnelled server ${t.server.toFixed(2)}, curl ${t.curl.toFixed(2)}, ` +
        `host (proxy and shell) ${t.host.toFixed(2)}; direct server ${d.server.toFixed(2)}, curl ` +
        `${d.curl.toFixed(2)}, host (shell) ${d.host.toFixed(2)}; the tunnel costs ` +
        `${(total(t) / total(d)).toFixed(2)}x the CPU of the direct download`,
    );
    report(
      '256 MiB download, plain HTTP forwarded by the proxy',
      median(forwarded),
      'MiB/s',
      median(direct),
      'MiB/s',
      reference,
    );
    if (floor) {
      report(
        '256 MiB download through a minimal C relay (read/write, no policy)',
        median(relayed),
        'MiB/s',
        median(direct),
        'MiB/s',
        reference,
      );
      report(
        'the confined tunnel against that relay (what the proxy itself costs)',
        median(tunnelled),
        'MiB/s',
        median(relayed),
        'MiB/s',
        'the minimal C relay',
      );
    } else console.log('  (no minimal relay: gcc not found)');
  } finally {
    origin.stop();
    floor?.stop();
  }
} finally {
  for (const s of services) await s.dispose();
  t.cleanup();
}

/**
 * bench/relay-floor.c built with gcc (which the Landlock launcher's build needs anyway) and started
 * in a session of its own like the server, relaying 127.0.0.1:PORT to `host:port`; null without gcc.
 */
async function relayFloor(
  dir: string,
  host: string,
  port: number,
): Promise<{ port: number; stop(): void } | null> {
  const bin = join(dir, 'relay-floor');
  try {
    execFileSync('gcc', ['-O2', '-o', bin, join('bench', 'relay-floor.c'), '-lpthread']);
  } catch {
    return null;
  }
  const child = spawn(bin, [host, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  const own = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`relay exited (${code})`)));
    child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
  });
  return { port: own, stop: () => child.kill('SIGTERM') };
}

/**
 * bench/byte-server.mjs in a process and a session of its own (see "Who shares a core" above),
 * serving `bytes` on `host`; it exits when this process goes (its IPC channel closes).
 */
async function byteServer(
  host: string,
  bytes: number,
): Promise<{ port: number; stop(): void; cpuSeconds(): number }> {
  const child = spawn(process.execPath, [join('bench', 'byte-server.mjs'), host, String(bytes)], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    detached: true,
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`byte server exited (${code})`)));
    child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
  });
  return {
    port,
    stop: () => child.kill('SIGTERM'),
    // utime + stime of /proc/PID/stat, in clock ticks of 10 ms.
    cpuSeconds: () => {
      const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(f[11]) + Number(f[12])) / 100;
    },
  };
}
