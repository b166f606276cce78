import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile } from '../../../electron/host/config/load-config';
import { ConfigStore } from '../../../electron/host/config/config-store';
import { WorkspaceTrust } from '../../../electron/host/trust/workspace-trust';
import { tempDir } from '../../helpers/temp';

let tmp: ReturnType<typeof tempDir>;
let configFile: string;
const dir = (name: string) => {
  const d = join(tmp.dir, name);
  mkdirSync(d, { recursive: true });
  return realpathSync(d);
};

beforeEach(() => {
  tmp = tempDir('mewbo-trust-');
  configFile = join(tmp.dir, 'home', 'configs', 'app.json');
});
afterEach(() => tmp.cleanup());

const stores: ConfigStore[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.dispose()));
});

function trustFrom(raw: unknown, runTrusted: string[] = []): WorkspaceTrust {
  return open(raw, runTrusted).trust;
}

function open(raw: unknown, runTrusted: string[] = []) {
  mkdirSync(join(tmp.dir, 'home', 'configs'), { recursive: true });
  writeFileSync(configFile, JSON.stringify(raw));
  const store = ConfigStore.open({ file: configFile, watch: false });
  stores.push(store);
  const trust = new WorkspaceTrust({
    config: store,
    runTrusted,
    onConfigChange: store.onDidChange,
  });
  return { trust, store };
}

describe('workspace trust', () => {
  it('a project is untrusted until the user says so; listed in projects without trusted: true is untrusted', () => {
    const a = dir('a');
    const b = dir('b');
    const t = trustFrom({ projects: { a: { path: a }, b: { path: b, trusted: true } } });
    expect(t.isTrusted(a)).toBe(false);
    expect(t.isTrusted(b)).toBe(true);
    expect(t.isTrusted(join(b, 'sub'))).toBe(true);
    expect(t.isTrusted(dir('elsewhere'))).toBe(false);
    expect(t.isTrusted(null)).toBe(false);
  });

  it('the nearer word wins: a configured project inside a trusted directory stays untrusted unless it says so', () => {
    const parent = dir('parent');
    const inner = dir('parent/inner');
    const t = trustFrom({ trusted_projects: [parent], projects: { inner: { path: inner } } });
    expect(t.isTrusted(parent)).toBe(true);
    expect(t.isTrusted(inner)).toBe(false);
  });

  it('trust is decided on the real path: a symlink to an untrusted project is untrusted', () => {
    const real = dir('real');
    const trusted = dir('trusted');
    symlinkSync(real, join(trusted, 'link'));
    const t = trustFrom({ trusted_projects: [trusted] });
    expect(t.isTrusted(join(trusted, 'link'))).toBe(false);
  });

  it('trust and revoke write the user config and keep its other keys', async () => {
    const a = dir('a');
    const b = dir('b');
    const t = trustFrom({ permission_mode: 'auto', projects: { a: { path: a } } });
    const seen: number[] = [];
    t.onDidChange((list) => seen.push(list.length));
    await t.trust(a);
    await t.trust(b);
    expect(t.isTrusted(a) && t.isTrusted(b)).toBe(true);
    const written = loadConfigFile(configFile);
    expect(written.permission_mode).toBe('auto');
    expect(written.projects.a!.trusted).toBe(true);
    expect(written.trusted_projects).toEqual([b]);
    expect(t.list().map((p) => [p.path, p.source])).toEqual([
      [a, 'config'],
      [b, 'list'],
    ]);
    await t.revoke(a);
    await t.revoke(b);
    expect(t.isTrusted(a) || t.isTrusted(b)).toBe(false);
    const after = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
    expect(after).toMatchObject({ projects: { a: { path: a } }, trusted_projects: [] });
    expect((after.projects as Record<string, object>).a).not.toHaveProperty('trusted');
    expect(seen).toEqual([1, 2, 1, 0]);
  });

  it('mewbo run --trust trusts its root for this process only, writing nothing', () => {
    const a = dir('a');
    const t = trustFrom({}, [a]);
    expect(t.isTrusted(a)).toBe(true);
    expect(t.list()).toEqual([{ path: a, source: 'run', project: null }]);
    expect(loadConfigFile(configFile).trusted_projects).toEqual([]);
  });

  it('a hand edit of the config trusts at once and is announced', async () => {
    const a = dir('a');
    const { trust, store } = open({});
    const seen: unknown[] = [];
    trust.onDidChange((list) => seen.push(list));
    writeFileSync(configFile, JSON.stringify({ projects: { a: { path: a, trusted: true } } }));
    expect(await store.reload()).toBe(true);
    expect(trust.isTrusted(a)).toBe(true);
    expect(seen).toEqual([[{ path: a, source: 'config', project: 'a' }]]);
  });
});
