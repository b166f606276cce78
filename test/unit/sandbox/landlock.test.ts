import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import { homePaths } from '../../../electron/host/config/paths';
import {
  findInstallRoot,
  findLauncher,
  probeLandlock,
} from '../../../electron/host/sandbox/launcher';
import { encodeRules } from '../../../electron/host/sandbox/grant-plan';
import { ShellService } from '../../../electron/host/shells/shell-service';
import { tempDir } from '../../helpers/temp';

const launcher = findLauncher(findInstallRoot(process.cwd()))!;
const probed = launcher
  ? (JSON.parse(execFileSync(launcher, ['--probe'], { encoding: 'utf8' })) as {
      abi: number;
      net?: boolean;
    })
  : { abi: 0 };
const abi = probed.abi;
const ALL = 0xffffffff;

let cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

function workspace() {
  const t = tempDir('mewbo-ll-');
  cleanups.push(t.cleanup);
  const dir = realpathSync(t.dir);
  mkdirSync(join(dir, 'open'));
  mkdirSync(join(dir, 'closed'));
  writeFileSync(join(dir, 'open', 'ok.txt'), 'readable');
  writeFileSync(join(dir, 'closed', 'secret.txt'), 'TOP-SECRET');
  const rules = (grants: { path: string; rights: number }[]) => encodeRules(grants);
  const system = ['/usr', '/etc', '/proc', '/dev', '/lib', '/lib64', '/bin'].map((path) => ({
    path,
    rights: ALL,
  }));
  return { dir, rules, system };
}

/** As run(), without blocking the event loop (the command may connect to this process); its output. */
function runAsync(args: string[], rules: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(launcher, ['--rules-stdin', String(rules.length), ...args], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.on('error', reject);
    child.on('close', () => resolve(out));
    child.stdin.end(rules);
  });
}

/** Runs the launcher with `rules` on its stdin (--rules-stdin), the way servers get theirs. */
function run(args: string[], rules?: Buffer) {
  const head = rules ? ['--rules-stdin', String(rules.length)] : [];
  return spawnSync(launcher, [...head, ...args], {
    encoding: 'utf8',
    timeout: 20_000,
    input: rules ?? '',
  });
}

describe('the launcher', () => {
  test('was built and probes the kernel ABI', async () => {
    expect(launcher).toBeTruthy();
    const probe = await probeLandlock(launcher);
    expect(probe.abi).toBe(abi);
    expect(probe.abi > 0 ? probe.reason === null : Boolean(probe.reason)).toBe(true);
  });

  test.skipIf(abi < 1)(
    'a ruleset masked to the ABI confines reads and writes to the grants',
    () => {
      const w = workspace();
      const rules = w.rules([...w.system, { path: join(w.dir, 'open'), rights: ALL }]);
      const r = run(
        [
          '--merge-stderr',
          '--',
          '/bin/bash',
          '-c',
          `cat ${w.dir}/open/ok.txt; echo; cat ${w.dir}/closed/secret.txt; echo x > ${w.dir}/closed/new.txt; echo y > ${w.dir}/open/new.txt && echo wrote-open`,
        ],
        rules,
      );
      expect(r.stdout).toContain('readable');
      expect(r.stdout).not.toContain('TOP-SECRET');
      expect(r.stdout).toMatch(/secret.txt: Permission denied/);
      expect(r.stdout).toMatch(/closed\/new.txt: Permission denied/);
      expect(r.stdout).toContain('wrote-open');
    },
  );

  test.skipIf(abi < 1)(
    'a grant that cannot be added is dropped with a warning naming it, and the rest still confines',
    () => {
      const w = workspace();
      const bad = `/${'n'.repeat(300)}`;
      const rules = w.rules([...w.system, { path: bad, rights: ALL }]);
      const r = run(['--', '/bin/bash', '-c', `cat ${w.dir}/closed/secret.txt`], rules);
      expect(r.stderr).toContain(`dropped grant ${bad}`);
      expect(r.stdout + r.stderr).not.toContain('TOP-SECRET');
    },
  );

  test.skipIf(abi < 1)(
    'a ruleset the kernel refuses fails the spawn with a clear line, never running unconfined',
    () => {
      // Landlock stacks at most 16 rulesets; the 17th nested launcher is refused by the kernel.
      const w = workspace();
      // Each reads its own rules off the shared stdin, exactly their length, then runs the next.
      const one = w.rules([{ path: '/', rights: ALL }]);
      const args: string[] = [];
      for (let i = 0; i < 17; i++) args.push(launcher, '--rules-stdin', String(one.length), '--');
      args.push('/bin/bash', '-c', `echo ran-unconfined; cat ${w.dir}/closed/secret.txt`);
      const r = spawnSync(args[0]!, args.slice(1), {
        encoding: 'utf8',
        timeout: 20_000,
        input: Buffer.concat(Array.from({ length: 17 }, () => one)),
      });
      expect(r.status).toBe(125);
      expect(r.stderr).toMatch(
        /mewbo-landlock: ruleset refused: landlock_restrict_self: .*; not running unconfined/,
      );
      expect(r.stdout).not.toContain('ran-unconfined');
      expect(r.stdout).not.toContain('TOP-SECRET');
    },
  );

  test.skipIf(abi < 4)(
    'records it does not know, a port that is no TCP port, or a port without "net" refuse the run',
    () => {
      const grant = Buffer.from('ffff /\0');
      for (const [extra, why] of [
        ['net\0port 0\0', 'not a TCP port: port 0'],
        ['net\0port 65536\0', 'not a TCP port: port 65536'],
        ['net\0port 80x\0', 'not a TCP port: port 80x'],
        ['net\0port -1\0', 'not a TCP port: port -1'],
        ['port 80\0', 'landlock_add_rule (port)'],
        ['netx\0', 'malformed rule record'],
        ['xyz /\0', 'malformed rule record'],
      ] as const) {
        const r = run(
          ['--', '/bin/bash', '-c', 'echo ran'],
          Buffer.concat([grant, Buffer.from(extra)]),
        );
        expect([extra, r.status, r.stdout]).toEqual([extra, 125, '']);
        expect(r.stderr).toContain(`ruleset refused: ${why}`);
      }
    },
  );

  test.skipIf(abi < 4)(
    'with "net", TCP connect reaches the listed ports only, and UDP is refused',
    async () => {
      const open = createServer((c) => c.end('OPEN-PORT\n'));
      const closed = createServer((c) => c.end('CLOSED-PORT\n'));
      await Promise.all(
        [open, closed].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', r))),
      );
      cleanups.push(() => new Promise<void>((r) => open.close(() => closed.close(() => r()))));
      const port = (s: typeof open) => (s.address() as AddressInfo).port;
      const rules = Buffer.from(`ffff /\0net\0port ${port(open)}\0`);
      const r = await runAsync(
        [
          '--merge-stderr',
          '--',
          '/bin/bash',
          '-c',
          `(exec 3<>/dev/tcp/127.0.0.1/${port(open)}; head -1 <&3); (exec 3<>/dev/tcp/127.0.0.1/${port(closed)}; head -1 <&3); echo x > /dev/udp/127.0.0.1/9 && echo UDP-SENT; echo end`,
        ],
        rules,
      );
      expect(r).toContain('OPEN-PORT');
      expect(r).not.toContain('CLOSED-PORT');
      expect(r).not.toContain('UDP-SENT');
      expect(r).toContain('end');
    },
  );

  test.skipIf(abi < 1)(
    '"hold" makes a path read-only for the command alone; a link on its way is not followed, a missing one is skipped',
    () => {
      const w = workspace();
      const held = join(w.dir, 'open', 'held');
      mkdirSync(held);
      writeFileSync(join(held, 'f'), 'before');
      symlinkSync(join(w.dir, 'open'), join(w.dir, 'link'));
      const records = [
        `pin ${w.dir}/open`,
        `hold ${held}`,
        `hold ${w.dir}/link/held`,
        `hold ${w.dir}/missing`,
      ];
      const rules = Buffer.concat([
        w.rules([{ path: '/', rights: ALL }]),
        Buffer.from(records.map((r) => `${r}\0`).join('')),
      ]);
      const r = run(
        [
          '--',
          '/bin/bash',
          '-c',
          `echo after > ${held}/f || echo refused; echo x > ${w.dir}/open/other && echo wrote-other; grep -c ' ${held} ' /proc/self/mountinfo`,
        ],
        rules,
      );
      expect(r.stdout).toBe('refused\nwrote-other\n1\n');
      expect(r.stderr).toContain(`not held ${w.dir}/link/held: a symbolic link on its way`);
      expect(r.stderr).not.toContain('missing');
      expect(readFileSync(join(held, 'f'), 'utf8')).toBe('before');
      // Private to the command: the host's own mounts are as they were.
      expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain(w.dir);
    },
  );

  test.skipIf(abi < 1)('more held paths than the launcher takes refuse the run', () => {
    const holds = Array.from({ length: 65 }, (_, i) => `hold /nonexistent/${i}\0`).join('');
    const r = run(['--', '/bin/bash', '-c', 'echo ran'], Buffer.from(`ffff /\0${holds}`));
    expect([r.status, r.stdout]).toEqual([125, '']);
    expect(r.stderr).toContain('ruleset refused: too many held paths: hold /nonexistent/64');
  });

  test('rules cut short refuse the spawn; a rules path is not accepted at all', () => {
    const short = spawnSync(launcher, ['--rules-stdin', '100', '--', '/bin/true'], {
      encoding: 'utf8',
      input: 'ffff /\0',
    });
    expect(short.status).toBe(125);
    expect(short.stderr).toContain('ruleset refused: cannot read rules from fd 0');
    const path = run(['--rules', '/nonexistent/rules', '--', '/bin/true']);
    expect(path.status).toBe(2);
    expect(path.stderr).toContain('usage');
  });
});

test('a packaged install (app.asar) runs the launcher from app.asar.unpacked', () => {
  const w = workspace();
  const unpacked = join(w.dir, 'resources', 'app.asar.unpacked', 'build', 'landlock');
  mkdirSync(unpacked, { recursive: true });
  writeFileSync(join(unpacked, 'mewbo-landlock'), '#!/bin/sh\n');
  chmodSync(join(unpacked, 'mewbo-landlock'), 0o755);
  expect(findLauncher(join(w.dir, 'resources', 'app.asar'))).toBe(join(unpacked, 'mewbo-landlock'));
});

describe('sandbox outcomes through the shell service', () => {
  type Raw = Record<string, unknown>;
  function service(
    rawOrFn: Raw | ((w: ReturnType<typeof workspace>) => Raw),
    opts: { launcher?: string | null } = {},
  ) {
    const w = workspace();
    const raw = typeof rawOrFn === 'function' ? rawOrFn(w) : rawOrFn;
    const home = join(w.dir, 'home');
    const root = join(w.dir, 'open');
    mkdirSync(join(home, 'configs'), { recursive: true });
    const logs: string[] = [];
    const config = parseConfig({
      projects: { open: { path: root }, closed: { path: join(w.dir, 'closed') } },
      ...raw,
    });
    const svc = new ShellService({
      paths: homePaths({ MEWBO_HOME: home }),
      config: () => config,
      log: (l) => logs.push(l),
      ...opts,
    });
    cleanups.push(() => svc.dispose());
    const m = svc.forSession('s_outcome1');
    const runIt = (command: string) =>
      m.run({ command, cwd: root, root, config, tty: false, timeoutMs: 20_000 });
    return { w, svc, runIt, logs };
  }

  test.skipIf(abi < 1)(
    'the default is Landlock at the probed ABI, in every payload, and another project is unreachable',
    async () => {
      const { runIt, svc, w } = service({});
      const status = {
        mode: 'landlock',
        abi,
        write_scope: 'project',
        // Without a session: confined to a proxy whose port each session's spawn adds; open,
        // with why, where the kernel cannot hold it.
        network: probed.net
          ? { mode: 'proxy', connect_ports: [] }
          : { mode: 'open', reason: expect.any(String) },
        policy_files: { mode: 'read_only' },
      };
      expect(await svc.sandboxStatus()).toEqual(status);
      const r = await runIt(`cat ${w.dir}/closed/secret.txt; cat ok.txt`);
      if ('kind' in r) throw new Error(JSON.stringify(r));
      expect(r.info.sandbox).toEqual({
        ...status,
        ...(probed.net ? { network: { mode: 'proxy', connect_ports: [expect.any(Number)] } } : {}),
      });
      expect(r.result.text).toContain('readable');
      expect(r.result.text).not.toContain('TOP-SECRET');
    },
  );

  test('a kernel without Landlock runs unconfined, logged once, with the status visible', async () => {
    const w = workspace();
    const fake = join(w.dir, 'fake-launcher');
    writeFileSync(
      fake,
      '#!/bin/sh\nif [ "$1" = --probe ]; then echo \'{"abi":0,"errno":"ENOSYS","reason":"the kernel was built without Landlock"}\'; exit 0; fi\nwhile [ "$1" != -- ]; do shift; done; shift; exec "$@"\n',
    );
    chmodSync(fake, 0o755);
    const { runIt, svc, logs, w: w2 } = service({}, { launcher: fake });
    const first = await runIt(`cat ${w2.dir}/closed/secret.txt`);
    const second = await runIt('true');
    if ('kind' in first || 'kind' in second) throw new Error('spawn refused');
    expect(first.info.sandbox).toEqual({
      mode: 'unconfined',
      reason: expect.stringContaining('built without Landlock'),
    });
    expect(first.result.text).toContain('TOP-SECRET');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toContain('unconfined');
    expect((await svc.sandboxStatus()).mode).toBe('unconfined');
  });

  test('with the launcher missing, shells are refused rather than run unconfined', async () => {
    const { runIt, svc } = service({}, { launcher: null });
    const r = await runIt('echo should-not-run');
    expect(r).toMatchObject({ kind: 'error', code: 'sandbox_unavailable' });
    expect((await svc.sandboxStatus()).mode).toBe('unavailable');
  });

  test('agent.shell_sandbox false says so and runs unconfined', async () => {
    const { runIt, w } = service({ agent: { shell_sandbox: false } });
    const r = await runIt(`cat ${w.dir}/closed/secret.txt`);
    if ('kind' in r) throw new Error(JSON.stringify(r));
    expect(r.info.sandbox).toEqual({ mode: 'off', reason: 'agent.shell_sandbox is false' });
    expect(r.result.text).toContain('TOP-SECRET');
  });

  test.skipIf(abi < 1)('a dropped grant reaches the payload as a warning', async () => {
    const { runIt } = service((w) => ({
      projects: {
        open: { path: join(w.dir, 'open'), allowed_paths: ['/nonexistent/mewbo-allowed'] },
      },
    }));
    const r = await runIt('true');
    if ('kind' in r) throw new Error(JSON.stringify(r));
    expect(r.sandboxWarnings).toEqual([
      expect.stringContaining('dropped grant /nonexistent/mewbo-allowed'),
    ]);
  });
});
