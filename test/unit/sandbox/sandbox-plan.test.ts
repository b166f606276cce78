import {
  chmodSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, test } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import {
  ALL_RIGHTS,
  DEVICE_WRITE_RIGHTS,
  FS,
  READ_RIGHTS,
  TERMINAL_WRITE_ONLY_RIGHTS,
} from '../../../electron/host/sandbox/access-rights';
import { buildDenyList, type DenyList } from '../../../electron/host/sandbox/deny-list';
import {
  compileGrants,
  encodeRules,
  MAX_GRANTS,
  type Grant,
} from '../../../electron/host/sandbox/grant-plan';
import { realPathLoose } from '../../../electron/host/sandbox/real-path';
import {
  rulesOverFd,
  rulesOverStdin,
  RULES_FD,
  Sandbox,
} from '../../../electron/host/sandbox/sandbox';
import { isInside } from '../../../electron/host/fs/safe-path';
import { tempDir } from '../../helpers/temp';

// What a confined shell may reach, decided before the kernel sees it: the deny list (who is
// denied, and what is never denied because the shell needs it), the grants it compiles into (and
// what is granted on top in each write scope), and the Sandbox that hands one spawn its rules.
// Each test says which reach it pins; the launcher's own tests (landlock.test.ts) show the kernel
// enforcing such rules.

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function scratch(prefix = 'mewbo-sbx-'): string {
  const t = tempDir(prefix);
  cleanups.push(t.cleanup);
  return realpathSync(t.dir);
}

const mk = (...parts: string[]) => {
  const p = join(...parts);
  mkdirSync(p, { recursive: true });
  return p;
};

const rightsOf = (grants: Grant[], p: string) => grants.find((g) => g.path === p)?.rights;
const covering = (grants: Grant[], p: string) =>
  grants.filter((g) => isInside(g.path, p)).map((g) => g.path);

/** The launcher's records back into grants. */
const parseRules = (rules: Buffer): Grant[] =>
  rules
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((r) => ({
      rights: parseInt(r.slice(0, r.indexOf(' ')), 16),
      path: r.slice(r.indexOf(' ') + 1),
    }));

function denyList(d: Partial<DenyList> & { root: string }): DenyList {
  return { denied: [], readmitted: [], activeProject: null, warnings: [], ...d };
}

describe('access rights', () => {
  test('a granted directory gets every right but making device nodes', () => {
    for (const [name, bit] of Object.entries(FS)) {
      const expected = name !== 'MAKE_CHAR' && name !== 'MAKE_BLOCK';
      expect([name, (ALL_RIGHTS & bit) !== 0]).toEqual([name, expected]);
    }
    expect(ALL_RIGHTS).toBe(0xffff & ~(FS.MAKE_CHAR | FS.MAKE_BLOCK));
  });
});

describe('the deny list', () => {
  function setup() {
    const dir = scratch();
    return {
      dir,
      home: mk(dir, 'home'),
      install: mk(dir, 'install'),
      a: mk(dir, 'a'),
      ab: mk(dir, 'a', 'b'),
      other: mk(dir, 'other'),
    };
  }

  test('the deepest configured project holding the root is the active one; the others are denied', () => {
    const s = setup();
    const deny = buildDenyList({
      config: parseConfig({
        projects: { outer: { path: s.a }, inner: { path: s.ab }, other: { path: s.other } },
      }),
      root: join(s.ab, 'src'),
      homeDir: s.home,
      installRoot: null,
      protectedDirs: [],
    });
    expect(deny.activeProject).toBe('inner');
    expect(deny.denied).toContain(s.a);
    expect(deny.denied).toContain(s.other);
    expect(deny.denied).not.toContain(s.ab);
    // Listed the other way round, the deeper one still wins.
    const flipped = buildDenyList({
      config: parseConfig({ projects: { inner: { path: s.ab }, outer: { path: s.a } } }),
      root: s.ab,
      homeDir: s.home,
      installRoot: null,
      protectedDirs: [],
    });
    expect(flipped.activeProject).toBe('inner');
    // A project that does not hold the root is never the active one.
    const none = buildDenyList({
      config: parseConfig({ projects: { other: { path: s.other } } }),
      root: s.ab,
      homeDir: s.home,
      installRoot: null,
      protectedDirs: [],
    });
    expect(none.activeProject).toBeNull();
    expect(none.readmitted).toEqual([]);
  });

  test('raw disks and memory devices are always denied; character devices a shell uses are not', () => {
    const s = setup();
    const deny = buildDenyList({
      config: parseConfig({}),
      root: s.a,
      homeDir: s.home,
      installRoot: null,
      protectedDirs: [],
    });
    const dangerous = readdirSync('/dev', { withFileTypes: true })
      .filter((e) => e.isBlockDevice() || ['mem', 'kmem', 'port'].includes(e.name))
      .map((e) => `/dev/${e.name}`);
    for (const d of dangerous) expect(deny.denied).toContain(d);
    for (const ok of ['/dev/null', '/dev/tty', '/dev/urandom', '/dev/pts'])
      expect(deny.denied).not.toContain(ok);
    // Nothing else under /dev is denied.
    expect(deny.denied.filter((d) => d.startsWith('/dev/')).sort()).toEqual(dangerous.sort());
  });

  test('the list is sorted and each refusal to deny names what asked for it', () => {
    const s = setup();
    const runtime = mk(s.dir, 'rt', 'bin');
    const deny = buildDenyList({
      config: parseConfig({
        projects: { p: { path: s.ab }, q: { path: dirname(runtime) } },
        agent: { shell_denied_paths: ['/', s.other, runtime] },
      }),
      root: s.a,
      homeDir: runtime,
      installRoot: runtime,
      protectedDirs: [runtime],
    });
    expect(deny.denied).toEqual([...deny.denied].sort());
    expect(deny.denied).toContain(s.ab);
    expect(deny.denied).toContain(s.other);
    expect(deny.denied).not.toContain('/');
    expect(deny.warnings).toEqual([
      `sandbox: not denying ${dirname(runtime)} (from project 'q'): it holds ${runtime}, which the shell needs to run`,
      `sandbox: not denying ${runtime} (from the app's state ($MEWBO_HOME)): it holds ${runtime}, which the shell needs to run`,
      `sandbox: not denying ${runtime} (from the app's install (harness_self_deny)): it holds ${runtime}, which the shell needs to run`,
      'sandbox: not denying / (from agent.shell_denied_paths): it would leave the shell nothing to run',
      `sandbox: not denying ${runtime} (from agent.shell_denied_paths): it holds ${runtime}, which the shell needs to run`,
    ]);
  });

  test('the install is denied with harness_self_deny, app.asar with what is unpacked beside it', () => {
    const s = setup();
    const base = { root: s.a, homeDir: s.home, protectedDirs: [] };
    const plain = buildDenyList({ ...base, config: parseConfig({}), installRoot: s.install });
    expect(plain.denied).toContain(s.install);
    expect(plain.denied).not.toContain(`${s.install}.unpacked`);
    const asar = join(s.dir, 'app.asar');
    const packaged = buildDenyList({ ...base, config: parseConfig({}), installRoot: asar });
    expect(packaged.denied).toContain(asar);
    expect(packaged.denied).toContain(`${asar}.unpacked`);
    const off = buildDenyList({
      ...base,
      config: parseConfig({ agent: { harness_self_deny: false } }),
      installRoot: asar,
    });
    expect(off.denied).not.toContain(asar);
    expect(off.denied).not.toContain(`${asar}.unpacked`);
    const unknown = buildDenyList({ ...base, config: parseConfig({}), installRoot: null });
    expect(unknown.denied.filter((d) => !d.startsWith('/dev/'))).toEqual([s.home]);
  });

  test("the active project's allowed_paths are re-admitted, as real paths", () => {
    const s = setup();
    symlinkSync(s.other, join(s.dir, 'link'));
    const deny = buildDenyList({
      config: parseConfig({
        projects: { p: { path: s.a, allowed_paths: [join(s.dir, 'link')] } },
      }),
      root: s.a,
      homeDir: s.home,
      installRoot: null,
      protectedDirs: [],
    });
    expect(deny.readmitted).toEqual([s.other]);
  });
});

describe('the grant plan', () => {
  test('past MAX_GRANTS the rest is dropped with one warning; a path already granted still widens', () => {
    const dir = scratch();
    const big = mk(dir, 'big');
    for (let i = 0; i < MAX_GRANTS + 5; i++) writeFileSync(join(big, `f${i}`), '');
    const secret = mk(big, 'secret');
    const kept = join(big, 'f1');
    const plan = compileGrants({
      deny: denyList({ denied: [secret], root: mk(dir, 'proj'), readmitted: [kept] }),
      writeScope: 'project',
      tempDirs: [],
    });
    expect(plan.grants).toHaveLength(MAX_GRANTS);
    expect(plan.warnings.filter((w) => w.includes('grants; dropped the rest'))).toEqual([
      expect.stringMatching(
        /^sandbox: more than 20000 grants; dropped the rest \(starting at \/.+\)$/,
      ),
    ]);
    expect(covering(plan.grants, secret)).toEqual([]);
    // Already granted (read-only) before the cap: allowed_paths still widen it.
    if (rightsOf(plan.grants, kept) !== undefined)
      expect(rightsOf(plan.grants, kept)).toBe(ALL_RIGHTS);
  });

  test('a path granted twice keeps the union of its rights', () => {
    const dir = scratch();
    // /dev/null as a temp directory: granted whole, then as a writable device.
    const plan = compileGrants({
      deny: denyList({ denied: [join(dir, 'x')], root: mk(dir, 'proj') }),
      writeScope: 'project',
      tempDirs: ['/dev/null'],
    });
    expect(rightsOf(plan.grants, '/dev/null')).toBe(ALL_RIGHTS | DEVICE_WRITE_RIGHTS);
  });

  test('the session root is granted whole even when it is itself a denied path', () => {
    const dir = scratch();
    const root = mk(dir, 'proj');
    mk(root, 'src');
    const plan = compileGrants({
      deny: denyList({ denied: [root], root }),
      writeScope: 'unrestricted',
      tempDirs: [],
    });
    expect(rightsOf(plan.grants, root)).toBe(ALL_RIGHTS);
    expect(rightsOf(plan.grants, join(root, 'src'))).toBeUndefined();
  });

  test('temp directories: a missing one is skipped; unrestricted grants only the first, project all', () => {
    const dir = scratch();
    const root = mk(dir, 'proj');
    // The temp dirs sit in a tree granted whole, so only an explicit grant makes one a key.
    const t1 = mk(dir, 'tmps', 't1');
    const t2 = mk(dir, 'tmps', 't2');
    const missing = join(dir, 'tmps', 'gone');
    const deny = denyList({ denied: [mk(dir, 'denied')], root });
    expect(
      rightsOf(
        compileGrants({ deny, writeScope: 'unrestricted', tempDirs: [] }).grants,
        join(dir, 'tmps'),
      ),
    ).toBe(ALL_RIGHTS);
    const unrestricted = compileGrants({
      deny,
      writeScope: 'unrestricted',
      tempDirs: [missing, t1, t2],
    });
    expect(rightsOf(unrestricted.grants, missing)).toBeUndefined();
    expect(rightsOf(unrestricted.grants, t1)).toBe(ALL_RIGHTS);
    expect(rightsOf(unrestricted.grants, t2)).toBeUndefined();
    const project = compileGrants({ deny, writeScope: 'project', tempDirs: [missing, t1, t2] });
    expect(rightsOf(project.grants, missing)).toBeUndefined();
    expect(rightsOf(project.grants, t1)).toBe(ALL_RIGHTS);
    expect(rightsOf(project.grants, t2)).toBe(ALL_RIGHTS);
  });

  test('a temp directory inside any one of several denied paths is refused', () => {
    const dir = scratch();
    const a = mk(dir, 'a');
    const b = mk(dir, 'b');
    const tmp = mk(b, 'tmp');
    const plan = compileGrants({
      deny: denyList({ denied: [a, b], root: mk(dir, 'proj') }),
      writeScope: 'project',
      tempDirs: [tmp],
    });
    expect(covering(plan.grants, tmp)).toEqual([]);
    expect(plan.warnings).toContain(
      `sandbox: temp directory ${tmp} lies in a denied path; not granted`,
    );
  });

  test('project scope: each writable device is granted device rights, unless denied', () => {
    const dir = scratch();
    const devices = [
      '/dev/null',
      '/dev/zero',
      '/dev/full',
      '/dev/random',
      '/dev/urandom',
      '/dev/tty',
      '/dev/ptmx',
      '/dev/pts',
    ];
    const plan = compileGrants({
      // A denial under /dev splits it, so each device is its own grant.
      deny: denyList({ denied: ['/dev/zero', '/dev/shm'], root: mk(dir, 'proj') }),
      writeScope: 'project',
      tempDirs: [],
    });
    for (const dev of devices.filter((d) => existsSync(d) && d !== '/dev/zero'))
      expect([dev, rightsOf(plan.grants, dev)]).toEqual([dev, READ_RIGHTS | DEVICE_WRITE_RIGHTS]);
    expect(covering(plan.grants, '/dev/zero')).toEqual([]);
  });

  test('unrestricted scope: no separate device grants (the whole system is writable already)', () => {
    const dir = scratch();
    const plan = compileGrants({
      deny: denyList({ denied: [join(dir, 'x')], root: mk(dir, 'proj') }),
      writeScope: 'unrestricted',
      tempDirs: [],
    });
    expect(rightsOf(plan.grants, '/dev')).toBe(ALL_RIGHTS);
    expect(rightsOf(plan.grants, '/dev/null')).toBeUndefined();
    expect(rightsOf(plan.grants, '/dev/pts')).toBeUndefined();
  });

  test('a write-only terminal: /dev/pts is carved out of every tree and granted write-only', () => {
    const dir = scratch();
    for (const writeScope of ['project', 'unrestricted'] as const) {
      const plan = compileGrants({
        deny: denyList({ denied: [join(dir, 'x')], root: mk(dir, 'proj') }),
        writeScope,
        tempDirs: [],
        terminalWriteOnly: true,
      });
      expect(covering(plan.grants, '/dev/pts/0')).toEqual(['/dev/pts']);
      expect(rightsOf(plan.grants, '/dev/pts')).toBe(TERMINAL_WRITE_ONLY_RIGHTS);
      expect(rightsOf(plan.grants, '/dev/null')).toBe(
        writeScope === 'project' ? READ_RIGHTS | DEVICE_WRITE_RIGHTS : ALL_RIGHTS,
      );
    }
  });

  test('a readmitted path that does not exist is dropped with a warning', () => {
    const dir = scratch();
    const gone = join(dir, 'gone');
    const plan = compileGrants({
      deny: denyList({ denied: [], root: mk(dir, 'proj'), readmitted: [gone] }),
      writeScope: 'unrestricted',
      tempDirs: [],
    });
    expect(rightsOf(plan.grants, gone)).toBeUndefined();
    expect(plan.warnings).toEqual([
      `sandbox: dropped grant ${gone} (allowed_paths): it does not exist`,
    ]);
  });

  test('a directory that cannot be listed drops the grants under it, with its errno', () => {
    if (process.getuid?.() === 0) {
      // Root lists any directory; use a path that is not a directory instead.
      const dir = scratch();
      const file = join(dir, 'file');
      writeFileSync(file, '');
      const plan = compileGrants({
        deny: denyList({ denied: [join(file, 'inner')], root: mk(dir, 'proj') }),
        writeScope: 'unrestricted',
        tempDirs: [],
      });
      expect(plan.warnings).toContain(
        `sandbox: dropped grants under ${file}: cannot list it (ENOTDIR)`,
      );
      expect(rightsOf(plan.grants, file)).toBeUndefined();
      return;
    }
    const dir = scratch();
    const locked = mk(dir, 'locked');
    chmodSync(locked, 0);
    cleanups.unshift(() => chmodSync(locked, 0o700));
    const plan = compileGrants({
      deny: denyList({ denied: [join(locked, 'inner')], root: mk(dir, 'proj') }),
      writeScope: 'unrestricted',
      tempDirs: [],
    });
    expect(plan.warnings).toContain(
      `sandbox: dropped grants under ${locked}: cannot list it (EACCES)`,
    );
  });

  test('rules are "HEXMASK PATH\\0" records in UTF-8', () => {
    const buf = encodeRules([
      { path: '/a', rights: 0x1fff },
      { path: '/é', rights: 1 },
    ]);
    expect(buf.equals(Buffer.from('1fff /a\u00001 /é\u0000', 'utf8'))).toBe(true);
    const net = encodeRules([{ path: '/a', rights: 1 }], { network: { connectPorts: [80, 443] } });
    expect(net.toString('utf8')).toBe('1 /a\u0000net\u0000port 80\u0000port 443\u0000');
  });
});

describe('real paths', () => {
  test('a missing tail below a symlinked directory resolves through the link', () => {
    const dir = scratch();
    const real = mk(dir, 'real');
    symlinkSync(real, join(dir, 'link'));
    expect(realPathLoose(join(dir, 'link', 'missing', 'file'))).toBe(join(real, 'missing', 'file'));
    expect(realPathLoose(join(dir, 'link'))).toBe(real);
    expect(realPathLoose('relative/x')).toBe(join(realpathSync(process.cwd()), 'relative', 'x'));
  });
});

describe('the Sandbox', () => {
  const launcher = join(process.cwd(), 'build', 'landlock', 'mewbo-landlock');

  function fakeLauncher(json: string): string {
    const dir = scratch('mewbo-fake-ll-');
    const path = join(dir, 'launcher');
    writeFileSync(path, `#!/bin/sh\necho '${json}'\n`);
    chmodSync(path, 0o755);
    return path;
  }

  const config = (raw: Record<string, unknown> = {}) => parseConfig(raw);

  /** A Sandbox on Linux whose launcher's probe prints `probe`. */
  const linux = (probe: string) =>
    new Sandbox({
      launcher: fakeLauncher(probe),
      installRoot: null,
      homeDir: scratch(),
      platform: 'linux',
    });

  /** The launcher records of `rules` that `re` matches, in order. */
  const recordsMatching = (rules: Buffer | null, re: RegExp) =>
    (rules ?? Buffer.alloc(0))
      .toString('utf8')
      .split('\0')
      .filter((r) => re.test(r));

  test('rules go over a descriptor or stdin, and not at all when unconfined', () => {
    const rules = Buffer.from('abc');
    expect(rulesOverFd(rules)).toEqual(['--rules-fd', String(RULES_FD)]);
    expect(RULES_FD).toBe(3);
    expect(rulesOverFd(null)).toEqual([]);
    expect(rulesOverStdin(rules)).toEqual(['--rules-stdin', '3']);
    expect(rulesOverStdin(null)).toEqual([]);
  });

  test('off when the config says so', async () => {
    const sb = new Sandbox({ launcher, installRoot: null, homeDir: scratch() });
    expect(await sb.status(config({ agent: { shell_sandbox: false } }))).toEqual({
      mode: 'off',
      reason: 'agent.shell_sandbox is false',
    });
  });

  test('on Linux without a launcher, shells are refused with a reason saying how to fix it', async () => {
    const sb = new Sandbox({
      launcher: null,
      installRoot: null,
      homeDir: scratch(),
      platform: 'linux',
    });
    const status = await sb.status(config());
    expect(status.mode).toBe('unavailable');
    expect(status).toMatchObject({
      reason: expect.stringMatching(/launcher is not built.*shell_sandbox to false/),
    });
    const prepared = await sb.prepare({ config: config(), root: scratch(), tempDirs: [] });
    expect(prepared).toEqual({
      refused: expect.objectContaining({
        code: 'sandbox_unavailable',
        message: (status as { reason: string }).reason,
      }),
    });
    expect(await sb.probe()).toEqual({
      abi: 0,
      reason: 'launcher not built',
      networkGap: 'launcher not built',
      mountGap: 'launcher not built',
    });
  });

  test('elsewhere there is no Landlock: unconfined, said once in the log, never probed', async () => {
    const logs: string[] = [];
    const sb = new Sandbox({
      launcher: fakeLauncher('{"abi":9}'),
      installRoot: null,
      homeDir: scratch(),
      platform: 'darwin',
      log: (l) => logs.push(l),
    });
    const reason =
      'no Landlock: Landlock is a Linux feature; this is darwin; shell commands run unconfined';
    expect(await sb.status(config())).toEqual({ mode: 'unconfined', reason });
    await sb.status(config());
    expect(logs).toEqual([`[sandbox] ${reason}`]);
    expect(await sb.prepare({ config: config(), root: scratch(), tempDirs: [] })).toEqual({
      status: { mode: 'unconfined', reason },
      rules: null,
      warnings: [],
    });
  });

  test('the kernel is probed once; ABI 1 is enough for Landlock', async () => {
    const sb = new Sandbox({
      launcher: fakeLauncher('{"abi":1}'),
      installRoot: null,
      homeDir: scratch(),
      platform: 'linux',
    });
    const first = sb.probe();
    expect(sb.probe()).toBe(first);
    expect(await first).toEqual({
      abi: 1,
      reason: null,
      networkGap: 'the sandbox launcher predates network confinement (rebuild it)',
      mountGap: 'the sandbox launcher predates read-only policy files (rebuild it)',
    });
    expect(await sb.status(config({ agent: { shell_write_scope: 'project' } }))).toEqual({
      mode: 'landlock',
      abi: 1,
      write_scope: 'project',
      network: { mode: 'open', reason: 'no egress proxy confines it' },
      policy_files: {
        mode: 'writable',
        reason: 'the sandbox launcher predates read-only policy files (rebuild it)',
      },
    });
    const none = new Sandbox({
      launcher: fakeLauncher('{"abi":0,"reason":"disabled at boot"}'),
      installRoot: null,
      homeDir: scratch(),
      platform: 'linux',
      log: () => {},
    });
    expect(await none.status(config())).toEqual({
      mode: 'unconfined',
      reason: 'no Landlock: disabled at boot; shell commands run unconfined',
    });
  });

  test('a spawn gets rules denying the home, registered projects and more, with system temp dirs writable', async () => {
    const dir = scratch();
    const home = mk(dir, 'home');
    const root = mk(dir, 'proj');
    const registered = mk(dir, 'registered');
    const configured = mk(dir, 'configured');
    const clash = mk(dir, 'clash-registered');
    const sb = new Sandbox({
      launcher: fakeLauncher('{"abi":3}'),
      installRoot: null,
      homeDir: home,
      platform: 'linux',
      registeredProjects: () => ({ reg: registered, conf: clash }),
    });
    const prepared = await sb.prepare({
      config: config({
        projects: { conf: { path: configured } },
        agent: { shell_write_scope: 'project' },
      }),
      root,
      tempDirs: [],
    });
    if (!('rules' in prepared)) throw new Error('refused');
    const grants = parseRules(prepared.rules!);
    expect(covering(grants, join(home, 'x'))).toEqual([]);
    expect(covering(grants, join(registered, 'x'))).toEqual([]);
    expect(covering(grants, join(configured, 'x'))).toEqual([]);
    // On a key clash the configured project wins: the registered path under that key is not denied.
    expect(covering(grants, join(clash, 'x'))).not.toEqual([]);
    expect(rightsOf(grants, root)).toBe(ALL_RIGHTS);
    // Shared memory is writable in project scope; /tmp and /var/tmp are not (TMPDIR is).
    expect(rightsOf(grants, realPathLoose('/dev/shm'))).toBe(ALL_RIGHTS);
    for (const tmp of ['/tmp', '/var/tmp'].map(realPathLoose))
      expect([tmp, rightsOf(grants, tmp) ?? READ_RIGHTS]).toEqual([tmp, READ_RIGHTS]);
    expect(prepared.warnings).toEqual([]);
  });

  test('only the runtime and the shell are protected: a directory above the working one may be denied', async () => {
    const sb = new Sandbox({
      launcher: fakeLauncher('{"abi":3}'),
      installRoot: null,
      homeDir: scratch(),
      platform: 'linux',
    });
    const above = dirname(realpathSync(process.cwd()));
    const prepared = await sb.prepare({
      config: config({ agent: { shell_denied_paths: [above] } }),
      root: scratch(),
      tempDirs: [],
    });
    if (!('rules' in prepared)) throw new Error('refused');
    // (Checked out under /tmp, `above` is /tmp: that its temp directory is then not granted is
    // right, and not what this test is about.)
    expect(prepared.warnings.filter((w) => !w.includes('temp directory'))).toEqual([]);
    expect(covering(parseRules(prepared.rules!), join(above, 'anything'))).toEqual([]);
  });

  test("the runtime's directory is never denied, by default", async () => {
    const sb = new Sandbox({
      launcher: fakeLauncher('{"abi":3}'),
      installRoot: null,
      homeDir: scratch(),
      platform: 'linux',
    });
    const runtime = dirname(realpathSync(process.execPath));
    const prepared = await sb.prepare({
      config: config({ agent: { shell_denied_paths: [runtime] } }),
      root: scratch(),
      tempDirs: [],
    });
    if (!('rules' in prepared)) throw new Error('refused');
    expect(prepared.warnings).toContain(
      `sandbox: not denying ${runtime} (from agent.shell_denied_paths): it holds ${runtime}, which the shell needs to run`,
    );
  });

  test('a registered project holding the root is the active one: not denied, nothing re-admitted', async () => {
    const dir = scratch();
    const proj = mk(dir, 'registered');
    const other = mk(dir, 'other');
    const sb = new Sandbox({
      launcher: fakeLauncher('{"abi":3}'),
      installRoot: null,
      homeDir: mk(dir, 'home'),
      platform: 'linux',
      registeredProjects: () => ({ mine: proj, theirs: other }),
    });
    const prepared = await sb.prepare({ config: config(), root: join(proj, 'src'), tempDirs: [] });
    if (!('rules' in prepared)) throw new Error('refused');
    expect(prepared.warnings).toEqual([]);
    const grants = parseRules(prepared.rules!);
    expect(covering(grants, join(proj, 'x'))).not.toEqual([]);
    expect(covering(grants, join(other, 'x'))).toEqual([]);
  });

  describe('the write scope', () => {
    function sandbox(home: string) {
      return new Sandbox({
        launcher: fakeLauncher('{"abi":4,"net":true}'),
        installRoot: null,
        homeDir: scratch(),
        platform: 'linux',
        userHome: home,
      });
    }

    test('is the project by default: the root, the own temp directory and shared memory; the home is read-only', async () => {
      const dir = scratch();
      const home = mk(dir, 'home');
      const root = mk(dir, 'proj');
      const own = mk(dir, 'tmp-own');
      const sb = sandbox(home);
      expect(await sb.status(config())).toMatchObject({ write_scope: 'project' });
      const prepared = await sb.prepare({ config: config(), root, tempDirs: [own] });
      if (!('rules' in prepared)) throw new Error('refused');
      const grants = parseRules(prepared.rules!);
      expect(rightsOf(grants, root)).toBe(ALL_RIGHTS);
      expect(rightsOf(grants, own)).toBe(ALL_RIGHTS);
      const writable = (p: string) =>
        grants.some((g) => isInside(g.path, p) && (g.rights & FS.WRITE_FILE) !== 0);
      expect(writable(join(home, '.bashrc'))).toBe(false);
      expect(writable(join(home, '.ssh', 'authorized_keys'))).toBe(false);
      expect(writable(join(realPathLoose('/tmp'), 'x'))).toBe(false);
      expect(writable(join(realPathLoose('/dev/shm'), 'x'))).toBe(true);
    });

    test("package caches that exist are writable, `~/` being the shells' home; missing ones are not made", async () => {
      const dir = scratch();
      const home = mk(dir, 'home');
      const npm = mk(home, '.npm');
      const elsewhere = mk(dir, 'elsewhere-cache');
      const prepared = await sandbox(home).prepare({
        config: config({ sandbox: { cache_dirs: ['~/.npm', '~/.cache/pip', elsewhere] } }),
        root: mk(dir, 'proj'),
        tempDirs: [],
      });
      if (!('rules' in prepared)) throw new Error('refused');
      const grants = parseRules(prepared.rules!);
      expect(rightsOf(grants, npm)).toBe(ALL_RIGHTS);
      expect(rightsOf(grants, elsewhere)).toBe(ALL_RIGHTS);
      expect(
        covering(grants, join(home, '.cache', 'pip')).map((p) => rightsOf(grants, p)),
      ).not.toContain(ALL_RIGHTS);
      expect(existsSync(join(home, '.cache'))).toBe(false);
      expect(prepared.warnings).toEqual([]);
    });

    test('the default caches are the npm, pip, cargo and go ones', () => {
      expect(config().sandbox.cache_dirs).toEqual([
        '~/.npm',
        '~/.cache/pip',
        '~/.cargo/registry',
        '~/.cargo/git',
        '~/go/pkg/mod',
        '~/.cache/go-build',
      ]);
      expect(() => config({ sandbox: { cache_dirs: ['relative/cache'] } })).toThrow(
        /absolute path or start with ~\//,
      );
    });

    test('a cache directory that is the home, holds it, or lies in a denied path is refused with a warning', async () => {
      const dir = scratch();
      const home = mk(dir, 'home');
      const appHome = mk(dir, 'app-home');
      const inApp = mk(appHome, 'cache');
      const sb = new Sandbox({
        launcher: fakeLauncher('{"abi":4,"net":true}'),
        installRoot: null,
        homeDir: appHome,
        platform: 'linux',
        userHome: home,
      });
      const prepared = await sb.prepare({
        config: config({ sandbox: { cache_dirs: ['~/', dir, '/', inApp] } }),
        root: mk(dir, 'proj'),
        tempDirs: [],
      });
      if (!('rules' in prepared)) throw new Error('refused');
      const why = 'it would make every file of the home writable';
      expect(prepared.warnings).toEqual([
        `sandbox: cache directory ${home} not granted: ${why} (choose agent.shell_write_scope "unrestricted" for that)`,
        `sandbox: cache directory ${dir} not granted: ${why} (choose agent.shell_write_scope "unrestricted" for that)`,
        `sandbox: cache directory / not granted: ${why} (choose agent.shell_write_scope "unrestricted" for that)`,
        `sandbox: cache directory ${inApp} lies in a denied path; not granted`,
      ]);
      const grants = parseRules(prepared.rules!);
      expect(rightsOf(grants, home) ?? READ_RIGHTS).toBe(READ_RIGHTS);
      expect(covering(grants, join(inApp, 'x'))).toEqual([]);
    });

    test('unrestricted grants no caches of its own: everything is writable already', async () => {
      const dir = scratch();
      const home = mk(dir, 'home');
      const npm = mk(home, '.npm');
      const prepared = await sandbox(home).prepare({
        config: config({ agent: { shell_write_scope: 'unrestricted' } }),
        root: mk(dir, 'proj'),
        tempDirs: [],
      });
      if (!('rules' in prepared)) throw new Error('refused');
      expect(rightsOf(parseRules(prepared.rules!), npm)).toBeUndefined();
    });
  });

  describe('the network grant', () => {
    const records = (rules: Buffer | null) => recordsMatching(rules, /^(net|port )/);

    test('a grant becomes "net" and a "port" record per port, sorted once each; the status names them', async () => {
      const prepared = await linux('{"abi":4,"net":true}').prepare({
        config: config(),
        root: scratch(),
        tempDirs: [],
        network: { connectPorts: [8080, 3128, 8080] },
      });
      if (!('rules' in prepared)) throw new Error('refused');
      expect(records(prepared.rules)).toEqual(['net', 'port 3128', 'port 8080']);
      expect(prepared.status).toMatchObject({
        network: { mode: 'proxy', connect_ports: [3128, 8080] },
      });
    });

    test('an empty grant confines the network to nothing', async () => {
      const prepared = await linux('{"abi":4,"net":true}').prepare({
        config: config(),
        root: scratch(),
        tempDirs: [],
        network: { connectPorts: [] },
      });
      if (!('rules' in prepared)) throw new Error('refused');
      expect(records(prepared.rules)).toEqual(['net']);
      expect(prepared.status).toMatchObject({ network: { mode: 'proxy', connect_ports: [] } });
    });

    test('without a grant the network is open: no record, and the status says so', async () => {
      const prepared = await linux('{"abi":4,"net":true}').prepare({
        config: config(),
        root: scratch(),
        tempDirs: [],
      });
      if (!('rules' in prepared)) throw new Error('refused');
      expect(records(prepared.rules)).toEqual([]);
      expect(prepared.status).toMatchObject({
        network: { mode: 'open', reason: 'no egress proxy confines it' },
      });
    });

    test('where the kernel cannot hold it, nothing is sent and the status says open, with why', async () => {
      const why = 'Landlock ABI 3 has no network rules (they need ABI 4, Linux 6.7)';
      const sb = linux(`{"abi":3,"net":false,"net_reason":"${why}"}`);
      expect(await sb.probe()).toMatchObject({ abi: 3, reason: null, networkGap: why });
      const prepared = await sb.prepare({
        config: config(),
        root: scratch(),
        tempDirs: [],
        network: { connectPorts: [3128] },
      });
      if (!('rules' in prepared)) throw new Error('refused');
      expect(records(prepared.rules)).toEqual([]);
      expect(prepared.status).toMatchObject({
        mode: 'landlock',
        network: { mode: 'open', reason: why },
      });
      expect(await sb.status(config(), { connectPorts: [3128] })).toEqual(prepared.status);
    });

    test('a port that is not a TCP port refuses the spawn, naming it', async () => {
      const sb = linux('{"abi":4,"net":true}');
      for (const port of [0, 65536, 1.5, -1, Number.NaN]) {
        const prepared = await sb.prepare({
          config: config(),
          root: scratch(),
          tempDirs: [],
          network: { connectPorts: [3128, port] },
        });
        expect(prepared).toEqual({
          refused: expect.objectContaining({
            code: 'invalid_args',
            message: `network grant: ${port} is not a TCP port (an integer 1-65535)`,
          }),
        });
        expect(await sb.status(config(), { connectPorts: [port] })).toMatchObject({
          network: { mode: 'open', reason: expect.stringContaining(`${port} is not a TCP port`) },
        });
      }
      for (const port of [1, 65535]) {
        const ok = await sb.prepare({
          config: config(),
          root: scratch(),
          tempDirs: [],
          network: { connectPorts: [port] },
        });
        expect(ok).toMatchObject({ status: { network: { connect_ports: [port] } } });
      }
    });

    test('unconfined shells carry no network status of their own: the whole sandbox is off', async () => {
      const sb = linux('{"abi":4,"net":true}');
      const off = await sb.prepare({
        config: config({ agent: { shell_sandbox: false } }),
        root: scratch(),
        tempDirs: [],
        network: { connectPorts: [3128] },
      });
      expect(off).toEqual({
        status: { mode: 'off', reason: 'agent.shell_sandbox is false' },
        rules: null,
        warnings: [],
      });
    });

    test('a probe that printed no JSON, or failed, leaves no Landlock and no network', async () => {
      expect(await linux('not json').probe()).toEqual({
        abi: 0,
        reason: "the launcher's probe printed no JSON: not json\n",
        networkGap: "the launcher's probe printed no JSON: not json\n",
        mountGap: "the launcher's probe printed no JSON: not json\n",
      });
      const broken = new Sandbox({
        launcher: join(scratch(), 'missing-launcher'),
        installRoot: null,
        homeDir: scratch(),
        platform: 'linux',
      });
      expect(await broken.probe()).toMatchObject({
        abi: 0,
        reason: expect.stringMatching(/^the launcher's probe failed: /),
      });
      expect(await linux('{"abi":0}').probe()).toEqual({
        abi: 0,
        reason: 'no Landlock',
        networkGap: 'no Landlock',
        mountGap: 'no Landlock',
      });
    });
  });

  describe('the policy files', () => {
    const mounts = (rules: Buffer | null) => recordsMatching(rules, /^(pin|hold) /);
    const prepare = async (sb: Sandbox, root: string) => {
      const prepared = await sb.prepare({ config: config(), root, tempDirs: [] });
      if (!('rules' in prepared)) throw new Error('refused');
      return prepared;
    };

    test('those that exist are held, the directories above them pinned, parents first; absent ones are not', async () => {
      const root = scratch();
      mk(root, '.mewbo');
      mk(root, '.git', 'hooks');
      writeFileSync(join(root, '.git', 'config'), '[core]\n');
      const prepared = await prepare(linux('{"abi":4,"net":true,"mount_ns":true}'), root);
      expect(mounts(prepared.rules)).toEqual([
        `pin ${root}`,
        `pin ${root}/.git`,
        `hold ${root}/.mewbo`,
        `hold ${root}/.git/hooks`,
        `hold ${root}/.git/config`,
      ]);
      expect(prepared.status).toMatchObject({ policy_files: { mode: 'read_only' } });
      expect(prepared.warnings).toEqual([]);
    });

    test("a worktree's .git file is held itself; a linked .claude is not followed, and both links say so", async () => {
      const root = scratch();
      const elsewhere = mk(scratch(), 'claude');
      writeFileSync(join(root, '.git'), 'gitdir: /somewhere/.git/worktrees/x\n');
      symlinkSync(elsewhere, join(root, '.claude'));
      writeFileSync(join(root, '.mcp.json'), '{}');
      linkSync(join(root, '.mcp.json'), join(root, 'mcp-copy.json'));
      const prepared = await prepare(linux('{"abi":4,"net":true,"mount_ns":true}'), root);
      expect(mounts(prepared.rules)).toEqual([
        `pin ${root}`,
        `hold ${root}/.mcp.json`,
        `hold ${root}/.git`,
      ]);
      expect(prepared.warnings).toEqual([
        `sandbox: ${root}/.claude is a symbolic link: the policy files under it are not held read-only`,
        `sandbox: ${root}/.mcp.json has another hard link: a command can change it through that name`,
      ]);
    });

    test('pins come root first whatever is held; a hard link to a file inside a held directory is named', async () => {
      const root = scratch();
      mk(root, '.git', 'hooks', 'nested');
      writeFileSync(join(root, '.git', 'config'), '[core]\n');
      writeFileSync(join(root, 'hook.sh'), '#!/bin/sh\n');
      linkSync(join(root, 'hook.sh'), join(root, '.git', 'hooks', 'nested', 'pre-commit'));
      const prepared = await prepare(linux('{"abi":4,"net":true,"mount_ns":true}'), root);
      expect(mounts(prepared.rules)).toEqual([
        `pin ${root}`,
        `pin ${root}/.git`,
        `hold ${root}/.git/hooks`,
        `hold ${root}/.git/config`,
      ]);
      expect(prepared.warnings).toEqual([
        `sandbox: ${root}/.git/hooks/nested/pre-commit has another hard link: a command can change it through that name`,
      ]);
    });

    test('a project with no .git at all still has its other policy files held', async () => {
      const root = scratch();
      mk(root, '.mewbo');
      const prepared = await prepare(linux('{"abi":4,"net":true,"mount_ns":true}'), root);
      expect(mounts(prepared.rules)).toEqual([`pin ${root}`, `hold ${root}/.mewbo`]);
    });

    // The hard-link walk is breadth first: `.claude` (entry 1), `.claude/a` (2), a's `plain`
    // files and `b` (3 to plain + 3), then b's `linked` file.
    const walkTree = (plain: number) => {
      const root = scratch();
      const b = mk(root, '.claude', 'a', 'b');
      for (let i = 0; i < plain; i++) writeFileSync(join(dirname(b), `f${i}`), '');
      writeFileSync(join(root, 'elsewhere'), '');
      linkSync(join(root, 'elsewhere'), join(b, 'linked'));
      return { root, linked: join(b, 'linked') };
    };

    test('the hard-link walk of a held directory looks at 2,000 entries and no more', async () => {
      const sb = linux('{"abi":4,"net":true,"mount_ns":true}');
      const within = walkTree(1996); // `linked` is entry 2,000
      expect((await prepare(sb, within.root)).warnings).toEqual([
        `sandbox: ${within.linked} has another hard link: a command can change it through that name`,
      ]);
      const beyond = walkTree(1997); // `linked` is entry 2,001
      const prepared = await prepare(sb, beyond.root);
      expect(prepared.warnings).toEqual([]);
      expect(mounts(prepared.rules)).toEqual([`pin ${beyond.root}`, `hold ${beyond.root}/.claude`]);
    });

    test('the hard-link walk does not follow a symbolic link out of a held directory', async () => {
      const root = scratch();
      const outside = mk(scratch(), 'shared');
      writeFileSync(join(outside, 'a'), '');
      linkSync(join(outside, 'a'), join(outside, 'b'));
      mk(root, '.claude');
      symlinkSync(outside, join(root, '.claude', 'shared'));
      const prepared = await prepare(linux('{"abi":4,"net":true,"mount_ns":true}'), root);
      expect(prepared.warnings).toEqual([]);
      expect(mounts(prepared.rules)).toEqual([`pin ${root}`, `hold ${root}/.claude`]);
    });

    test('an entry of a held directory too long to look at stops neither the walk nor the plan', async () => {
      const root = scratch();
      // Folders nested past 3,900 characters, then a name that takes the path past PATH_MAX
      // (4,096): the directory lists it, but lstat of its path fails (ENAMETOOLONG).
      let deep = mk(root, '.claude');
      while (deep.length < 3900) deep = mk(deep, 'd'.repeat(200));
      const made = spawnSync('sh', ['-c', ': > "$1"', 'sh', 'n'.repeat(250)], { cwd: deep });
      expect(made.status).toBe(0);
      writeFileSync(join(root, 'elsewhere'), '');
      linkSync(join(root, 'elsewhere'), join(root, '.claude', 'linked'));
      try {
        const prepared = await prepare(linux('{"abi":4,"net":true,"mount_ns":true}'), root);
        expect(mounts(prepared.rules)).toEqual([`pin ${root}`, `hold ${root}/.claude`]);
        expect(prepared.warnings).toEqual([
          `sandbox: ${root}/.claude/linked has another hard link: a command can change it through that name`,
        ]);
      } finally {
        // rmSync cannot name it either.
        spawnSync('sh', ['-c', 'rm -f -- "$1"', 'sh', 'n'.repeat(250)], { cwd: deep });
      }
    });

    test('where no mount namespace can be made, nothing is sent and the status says writable, with why', async () => {
      const why = 'no mount namespace: user namespaces are not available to this user (EPERM)';
      const root = scratch();
      mk(root, '.mewbo');
      const sb = linux(`{"abi":4,"net":true,"mount_ns":false,"mount_ns_reason":"${why}"}`);
      const prepared = await prepare(sb, root);
      expect(mounts(prepared.rules)).toEqual([]);
      expect(prepared.status).toMatchObject({ policy_files: { mode: 'writable', reason: why } });
      expect(await sb.status(config())).toEqual(prepared.status);
    });
  });

  test('on another platform a missing launcher is no refusal: there is no Landlock to use anyway', async () => {
    const sb = new Sandbox({
      launcher: null,
      installRoot: null,
      homeDir: scratch(),
      platform: 'darwin',
      log: () => {},
    });
    expect(await sb.status(config())).toMatchObject({ mode: 'unconfined' });
  });
});

describe('the deny list: which project is active', () => {
  test('of two projects at the same path, the first configured is the active one', () => {
    const dir = scratch();
    const p = mk(dir, 'p');
    const extra = mk(dir, 'extra');
    const deny = buildDenyList({
      config: parseConfig({
        projects: { first: { path: p, allowed_paths: [extra] }, second: { path: p } },
      }),
      root: p,
      homeDir: mk(dir, 'home'),
      installRoot: null,
      protectedDirs: [],
    });
    expect(deny.activeProject).toBe('first');
    expect(deny.readmitted).toEqual([extra]);
  });

  test('what is unpacked beside app.asar names the install as its source when it cannot be denied', () => {
    const dir = scratch();
    const asar = join(dir, 'app.asar');
    const bin = mk(`${asar}.unpacked`, 'bin');
    const deny = buildDenyList({
      config: parseConfig({}),
      root: mk(dir, 'proj'),
      homeDir: mk(dir, 'home'),
      installRoot: asar,
      protectedDirs: [bin],
    });
    expect(deny.warnings).toEqual([
      `sandbox: not denying ${asar}.unpacked (from the app's install (harness_self_deny)): it holds ${bin}, which the shell needs to run`,
    ]);
  });
});
