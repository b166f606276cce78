import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile } from '../../../electron/host/config/load-config';
import { ConfigStore } from '../../../electron/host/config/config-store';
import { TrustedContent } from '../../../electron/host/trust/trusted-content';
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

function open(raw: unknown, runTrusted: string[] = [], content?: TrustedContent) {
  mkdirSync(join(tmp.dir, 'home', 'configs'), { recursive: true });
  writeFileSync(configFile, JSON.stringify(raw));
  const store = ConfigStore.open({ file: configFile, watch: false });
  stores.push(store);
  const trust = new WorkspaceTrust({
    config: store,
    runTrusted,
    onConfigChange: store.onDidChange,
    content,
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

  it('at the same depth a trusting entry wins, in either source', () => {
    const a = dir('a');
    const t = trustFrom({ projects: { a: { path: a } }, trusted_projects: [a] });
    expect(t.isTrusted(a)).toBe(true);
    const b = dir('b');
    const u = trustFrom({ projects: { b1: { path: b, trusted: true }, b2: { path: b } } });
    expect(u.isTrusted(b)).toBe(true);
  });

  it('the deepest entry wins whatever the order written: a trusted parent listed first does not trust an inner project', () => {
    const parent = dir('parent');
    const inner = dir('parent/inner');
    const t = trustFrom({
      projects: { parent: { path: parent, trusted: true }, inner: { path: inner } },
    });
    expect(t.isTrusted(inner)).toBe(false);
    expect(t.isTrusted(join(parent, 'other'))).toBe(true);
  });

  it('without run roots nothing is trusted for the run', () => {
    mkdirSync(join(tmp.dir, 'home', 'configs'), { recursive: true });
    writeFileSync(configFile, '{}');
    const store = ConfigStore.open({ file: configFile, watch: false });
    stores.push(store);
    const t = new WorkspaceTrust({ config: store });
    expect(t.list()).toEqual([]);
    expect(t.isTrusted(join(process.cwd(), 'Stryker was here'))).toBe(false);
  });

  it('trusting lists a directory once, whatever spelling the list had, and keeps the others', async () => {
    const a = dir('a');
    const b = dir('b');
    symlinkSync(a, join(tmp.dir, 'a-link'));
    const t = trustFrom({ trusted_projects: [join(tmp.dir, 'a-link')] });
    await t.trust(a);
    await t.trust(b);
    await t.trust(a);
    expect(loadConfigFile(configFile).trusted_projects).toEqual([b, a]);
  });

  it('revoking a directory touches no configured project, whatever its key', async () => {
    const a = dir('a');
    const odd = dir('odd');
    const t = trustFrom({
      trusted_projects: [a],
      projects: { undefined: { path: odd, trusted: true } },
    });
    await t.revoke(a);
    expect(t.isTrusted(a)).toBe(false);
    expect(t.isTrusted(odd)).toBe(true);
  });

  it("a run's trust covers what is inside its root, not a sibling that shares its prefix", () => {
    const a = dir('a');
    const t = trustFrom({}, [a]);
    expect(t.isTrusted(join(a, 'sub'))).toBe(true);
    expect(t.isTrusted(dir('ab'))).toBe(false);
  });

  it("the watch announces only a hand edit, not the app's own write, and nothing once disposed", async () => {
    const a = dir('a');
    const { trust, store } = open({});
    const seen: unknown[] = [];
    trust.onDidChange((list) => seen.push(list));
    await store.update((raw) => {
      raw.trusted_projects = [a];
    });
    expect(seen).toEqual([]);
    trust.dispose();
    writeFileSync(configFile, JSON.stringify({ projects: { a: { path: a, trusted: true } } }));
    expect(await store.reload()).toBe(true);
    expect(seen).toEqual([]);
  });
});

describe('workspace trust over content', () => {
  const contentFile = () => join(tmp.dir, 'home', 'state', 'trusted-content.json');

  it('a trusted project admits the text it was trusted with; a changed text is announced once, and refused', async () => {
    const a = dir('a');
    writeFileSync(join(a, '.mcp.json'), 'v1');
    const { trust } = open({}, [], new TrustedContent(contentFile()));
    await trust.trust(a);
    const seen: unknown[] = [];
    trust.onDidChange((list) => seen.push(list));
    expect(await trust.trustsContent(a, '.mcp.json', 'v1')).toBe(true);
    expect(seen).toEqual([]);
    expect(await trust.trustsContent(a, '.mcp.json', 'v2')).toBe(false);
    expect(await trust.trustsContent(a, '.mcp.json', 'v2')).toBe(false);
    expect(seen).toEqual([[{ path: a, source: 'list', project: null }]]);
    expect(await trust.trustsContent(a, '.mcp.json', 'v3')).toBe(false);
    expect(await trust.trustsContent(a, '.claude/settings.json', 'v2')).toBe(false);
    expect(seen).toHaveLength(3);
  });

  it('an untrusted project admits nothing, announces nothing, shows no changes and records no edit', async () => {
    const a = dir('a');
    writeFileSync(join(a, '.mcp.json'), 'v1');
    const content = new TrustedContent(contentFile());
    await content.record(a);
    const { trust } = open({}, [], content);
    const seen: unknown[] = [];
    trust.onDidChange((list) => seen.push(list));
    expect(await trust.trustsContent(a, '.mcp.json', 'v1')).toBe(false);
    expect(seen).toEqual([]);
    writeFileSync(join(a, '.mcp.json'), 'v2');
    expect(await trust.contentChanges(a)).toEqual([]);
    await trust.recordEdit(a, '.mcp.json', 'v1', 'edited');
    expect(await content.admits(a, '.mcp.json', 'edited')).toBe(false);
  });

  it("a trusted project's changes are listed, and the app's own edit of it stays trusted", async () => {
    const a = dir('a');
    writeFileSync(join(a, '.mcp.json'), 'v1');
    const content = new TrustedContent(contentFile());
    const { trust } = open({}, [], content);
    await trust.trust(a);
    await trust.recordEdit(a, '.mcp.json', 'v1', 'edited');
    expect(await trust.trustsContent(a, '.mcp.json', 'edited')).toBe(true);
    expect(await trust.contentChanges(a)).toMatchObject([{ file: '.mcp.json', state: 'changed' }]);
  });

  it('without a content record a trusted project admits no file, lists no change and records no edit', async () => {
    const a = dir('a');
    writeFileSync(join(a, '.mcp.json'), 'v1');
    const t = trustFrom({ trusted_projects: [a] });
    expect(await t.trustsContent(a, '.mcp.json', 'v1')).toBe(false);
    expect(await t.contentChanges(a)).toEqual([]);
    await expect(t.recordEdit(a, '.mcp.json', 'v1', 'v2')).resolves.toBeUndefined();
  });
});
