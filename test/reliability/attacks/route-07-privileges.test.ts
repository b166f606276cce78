import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, test } from 'vitest';
import { abi, attackWorld, type AttackWorld } from './attack-world';

// Route 7: inside the launcher, before exec: no capabilities (also as root), no_new_privs, no
// signals to or abstract sockets of processes outside the sandbox, no renice/prlimit/sched_* on
// other processes, no core dumps, a process-count bound. The attacks aim at the host itself.

const HOST = process.pid;
let w: AttackWorld | undefined;
let server: ChildProcess | undefined;
afterEach(async () => {
  await w?.dispose();
  w = undefined;
  server?.kill('SIGKILL');
  server = undefined;
});

/** A service outside the sandbox listening on an abstract unix socket; its name. */
async function abstractSocket(): Promise<string> {
  const name = `mewbo-attack-${randomBytes(6).toString('hex')}`;
  const py = `import socket
s = socket.socket(socket.AF_UNIX)
s.bind('\\0${name}')
s.listen(8)
print('ready', flush=True)
while True:
    c, _ = s.accept()
    c.sendall(b'HOST-SOCKET-REPLY')
    c.close()`;
  server = spawn('python3', ['-c', py], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((r) => server!.stdout!.once('data', () => r()));
  return name;
}

function attacks(socket: string): string {
  return [
    `kill -0 ${HOST} && echo SIGNALLED-HOST`,
    `renice -n 0 -p ${HOST} >/dev/null && echo RENICED-HOST`,
    `prlimit --pid ${HOST} --core >/dev/null && echo PRLIMITED-HOST`,
    `python3 -c "import os; os.sched_setaffinity(${HOST}, os.sched_getaffinity(${HOST}))" && echo SCHED-HOST`,
    `python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('\\0${socket}'); print(s.recv(64).decode())"`,
    'echo end',
  ].join('; ');
}

const WINS = [
  'SIGNALLED-HOST',
  'RENICED-HOST',
  'PRLIMITED-HOST',
  'SCHED-HOST',
  'HOST-SOCKET-REPLY',
];

describe.runIf(abi >= 6)('route 7: privileges of a confined shell', () => {
  test('unprotected: an unconfined shell signals, renices, prlimits and reaches the host', async () => {
    w = attackWorld({ shell_sandbox: false });
    const out = await w.run(attacks(await abstractSocket()));
    for (const win of WINS) expect(out).toContain(win);
  });

  for (const tty of [false, true]) {
    test(`protected (${tty ? 'PTY' : 'pipes'}): none of it works, and the command holds no privilege`, async () => {
      w = attackWorld();
      const out = await w.run(attacks(await abstractSocket()), { tty });
      expect(out).toContain('end');
      for (const win of WINS) expect(out).not.toContain(win);
      expect(out).toMatch(/Operation not permitted|Permission denied/);
      const status = await w.run(
        "grep -E '^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs)' /proc/self/status; ulimit -c; ulimit -u",
        { tty },
      );
      for (const set of ['CapInh', 'CapPrm', 'CapEff', 'CapBnd', 'CapAmb'])
        expect(status).toMatch(new RegExp(`${set}:\\s+0000000000000000`));
      expect(status).toMatch(/NoNewPrivs:\s+1/);
      const [core, nproc] = status.trim().split(/\s+/).slice(-2);
      expect(core).toBe('0');
      expect(nproc).not.toBe('unlimited');
    });
  }

  // A fork bomb, bounded so the unprotected run stops by itself: forks sleeping children until
  // fork fails or FORK_TRY succeed, prints how many, then kills them all.
  const FORK_TRY = 2600;
  /** 2,600 forks, kills and reaps take seconds on a quiet machine and far longer on a loaded one. */
  const BOMB_MS = 120_000;
  const forkBomb = `python3 -c "
import os, signal, time
kids = []
try:
    while len(kids) < ${FORK_TRY}:
        pid = os.fork()
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        kids.append(pid)
except OSError:
    pass
print('FORKED', len(kids), flush=True)
for k in kids:
    os.kill(k, signal.SIGKILL)
for k in kids:
    os.waitpid(k, 0)
"`;
  /** The pids cgroups of confined commands now on this machine (cgroup v1 or v2 layout). */
  const shellCgroups = () =>
    ['/sys/fs/cgroup/pids', '/sys/fs/cgroup']
      .filter((d) => existsSync(d))
      .flatMap((d) =>
        readdirSync(d)
          .filter((name) => name.startsWith('mewbo-shell-'))
          .map((name) => `${d}/${name}`),
      );
  const forked = (out: string) => Number(/FORKED (\d+)/.exec(out)?.[1] ?? -1);

  test.runIf(process.getuid?.() === 0)(
    'as root, a fork bomb runs away unconfined and stops at the bound inside the sandbox (pids cgroup)',
    async () => {
      w = attackWorld({ shell_sandbox: false });
      expect(forked(await w.run(forkBomb, { timeoutMs: BOMB_MS }))).toBe(FORK_TRY);
      await w.dispose();
      w = attackWorld();
      const before = new Set(shellCgroups());
      const n = forked(await w.run(forkBomb, { timeoutMs: BOMB_MS }));
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(2048);
      // The command's cgroup goes with it: no cgroup made since is left empty (other tests'
      // shells, running at the same time, may hold cgroups of their own with processes in them).
      const leftEmpty = () =>
        shellCgroups().filter(
          (dir) => !before.has(dir) && readFileSync(`${dir}/cgroup.procs`, 'utf8').trim() === '',
        );
      await expect.poll(leftEmpty, { timeout: 5_000 }).toEqual([]);
    },
    2 * BOMB_MS + 10_000,
  );

  test('legitimate work on itself still works: nice, ulimit, its own children', async () => {
    w = attackWorld();
    const out = await w.run(
      'nice -n 5 echo nice-ok; (ulimit -n 64 && echo ulimit-ok); sleep 5 & kill $! && echo killed-own-child',
    );
    expect(out).toContain('nice-ok');
    expect(out).toContain('ulimit-ok');
    expect(out).toContain('killed-own-child');
  });
});
