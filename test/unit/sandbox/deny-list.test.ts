import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { parseConfig } from '../../../electron/host/config/load-config';
import { buildDenyList, type DenyInputs } from '../../../electron/host/sandbox/deny-list';
import { tempDir } from '../../helpers/temp';

let cleanup: (() => void) | null = null;
afterEach(() => cleanup?.());

function tree() {
  const t = tempDir('mewbo-deny-');
  cleanup = t.cleanup;
  const dir = realpathSync(t.dir);
  const p = (...parts: string[]) => {
    const path = join(dir, ...parts);
    mkdirSync(path, { recursive: true });
    return path;
  };
  return {
    dir,
    a: p('a'),
    b: p('b'),
    c: p('c'),
    config: p('home', 'configs'),
    install: p('install'),
    runtime: p('rt', 'bin'),
    extra: p('extra'),
  };
}

function inputs(
  t: ReturnType<typeof tree>,
  raw: Record<string, unknown>,
  root: string,
): DenyInputs {
  return {
    config: parseConfig(raw),
    root,
    homeDir: t.config,
    installRoot: t.install,
    protectedDirs: [t.runtime],
  };
}

describe('deny list', () => {
  test('every configured project but the active one is denied, with the config dir and the install', () => {
    const t = tree();
    const raw = { projects: { a: { path: t.a }, b: { path: t.b }, c: { path: t.c } } };
    const deny = buildDenyList(inputs(t, raw, join(t.a)));
    expect(deny.activeProject).toBe('a');
    expect(deny.denied).toEqual(expect.arrayContaining([t.b, t.c, t.config, t.install]));
    expect(deny.denied).not.toContain(t.a);
  });

  test("a worktree session's checkout (and the projects in it) is read-only, not denied; other projects stay denied", () => {
    const t = tree();
    const sub = join(t.b, 'pkg');
    mkdirSync(sub);
    const raw = {
      projects: { b: { path: t.b }, sub: { path: sub }, c: { path: t.c } },
    };
    const deny = buildDenyList({ ...inputs(t, raw, t.extra), worktreeCheckout: t.b });
    expect(deny.readOnly).toEqual([t.b]);
    expect(deny.denied).not.toContain(t.b);
    expect(deny.denied).not.toContain(sub);
    expect(deny.denied).toContain(t.c);
    // A checkout denied for another reason stays denied (the user's deny list wins).
    const denied = buildDenyList({
      ...inputs(t, { ...raw, agent: { shell_denied_paths: [t.b] } }, t.extra),
      worktreeCheckout: t.b,
    });
    expect(denied.denied).toContain(t.b);
    expect(denied.readOnly).toEqual([]);
  });

  test('a session bound to no project reaches none of them', () => {
    const t = tree();
    const raw = { projects: { a: { path: t.a }, b: { path: t.b } } };
    const deny = buildDenyList(inputs(t, raw, t.extra));
    expect(deny.activeProject).toBeNull();
    expect(deny.denied).toEqual(expect.arrayContaining([t.a, t.b]));
  });

  test('harness_self_deny off leaves the install reachable, never $MEWBO_HOME; shell_denied_paths adds more', () => {
    const t = tree();
    const raw = { agent: { harness_self_deny: false, shell_denied_paths: [t.extra] } };
    const deny = buildDenyList(inputs(t, raw, t.a));
    expect(deny.denied).toContain(t.config);
    expect(deny.denied).not.toContain(t.install);
    expect(deny.denied).toContain(t.extra);
  });

  test('denying the filesystem root or a directory holding the runtime is refused with a warning', () => {
    const t = tree();
    const raw = { agent: { shell_denied_paths: ['/', join(t.dir, 'rt')] } };
    const deny = buildDenyList(inputs(t, raw, t.a));
    expect(deny.denied).not.toContain('/');
    expect(deny.denied).not.toContain(join(t.dir, 'rt'));
    expect(deny.warnings.some((w) => w.includes('not denying /'))).toBe(true);
    expect(
      deny.warnings.some(
        (w) => w.includes(`not denying ${join(t.dir, 'rt')}`) && w.includes(t.runtime),
      ),
    ).toBe(true);
  });

  test('a denied symlink denies what it points to', () => {
    const t = tree();
    const link = join(t.dir, 'link-to-b');
    symlinkSync(t.b, link);
    const deny = buildDenyList(inputs(t, { agent: { shell_denied_paths: [link] } }, t.a));
    expect(deny.denied).toContain(t.b);
  });

  test("the active project's allowed_paths are re-admitted", () => {
    const t = tree();
    const raw = { projects: { a: { path: t.a, allowed_paths: [t.b] }, b: { path: t.b } } };
    const deny = buildDenyList(inputs(t, raw, t.a));
    expect(deny.denied).toContain(t.b);
    expect(deny.readmitted).toEqual([t.b]);
  });

  test('a packaged install denies app.asar and what is unpacked beside it', () => {
    const t = tree();
    const asar = join(t.dir, 'resources', 'app.asar');
    const deny = buildDenyList({ ...inputs(t, {}, t.a), installRoot: asar });
    expect(deny.denied).toEqual(expect.arrayContaining([asar, `${asar}.unpacked`]));
  });

  test('raw block devices are denied', () => {
    const t = tree();
    const deny = buildDenyList(inputs(t, {}, t.a));
    const blocks = deny.denied.filter((d) => d.startsWith('/dev/'));
    // Whatever this machine has; each is a block or memory device, never /dev/null or the terminals.
    expect(blocks).not.toContain('/dev/null');
    expect(blocks.some((d) => d.startsWith('/dev/pts'))).toBe(false);
  });
});
