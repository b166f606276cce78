import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigStore } from '../../../electron/host/config/config-store';
import { RulesService } from '../../../electron/host/rules/rules-service';
import { TRUSTED_TEXT_MAX_BYTES } from '../../../electron/host/trust/constants';
import { TrustedContent } from '../../../electron/host/trust/trusted-content';
import { WorkspaceTrust } from '../../../electron/host/trust/workspace-trust';
import { tempDir } from '../../helpers/temp';

// Trust covers the content it was given with (trust/trusted-content.ts), through the owners that
// use it: the rules service's load of a project's settings, and "Always allow in this project".

let tmp: ReturnType<typeof tempDir>;
let project: string;
let store: ConfigStore;
let trust: WorkspaceTrust;
let rules: RulesService;

const settings = (allow: string[]) => `${JSON.stringify({ permissions: { allow } })}\n`;
const write = (text: string) => writeFileSync(join(project, '.mewbo', 'settings.json'), text);
const projectRules = async () =>
  (await rules.load(project)).rules.filter((r) => r.scope === 'project').map((r) => r.rule.raw);

beforeEach(() => {
  tmp = tempDir('mewbo-trusted-content-');
  const base = realpathSync(tmp.dir);
  project = join(base, 'project');
  mkdirSync(join(project, '.mewbo'), { recursive: true });
  mkdirSync(join(base, 'home', 'configs'), { recursive: true });
  const configFile = join(base, 'home', 'configs', 'app.json');
  writeFileSync(configFile, '{}');
  store = ConfigStore.open({ file: configFile, watch: false });
  trust = new WorkspaceTrust({
    config: store,
    content: new TrustedContent(join(base, 'home', 'state', 'trusted-content.json')),
  });
  rules = new RulesService({
    configFile,
    trust,
    env: {},
    updateUserConfig: (m) => store.update(m),
  });
});
afterEach(async () => {
  trust.dispose();
  await store.dispose();
  tmp.cleanup();
});

describe('trusted content', () => {
  it('a settings file is used as trusted; changed after, it is left out with a warning until trusted again', async () => {
    write(settings(['Bash(ls)']));
    await trust.trust(project);
    expect(await projectRules()).toEqual(['Bash(ls)']);
    write(settings(['Bash(ls)', 'Bash(curl:*)']));
    const loaded = await rules.load(project);
    expect(loaded.rules.filter((r) => r.scope === 'project')).toEqual([]);
    expect(loaded.warnings[0]!.message).toContain('changed or added since you trusted');
    const [change] = await trust.contentChanges(project);
    expect(change).toMatchObject({ file: '.mewbo/settings.json', state: 'changed' });
    expect(change!.diff).toContain('+{"permissions":{"allow":["Bash(ls)","Bash(curl:*)"]}}');
    expect(change!.diff).toContain('-{"permissions":{"allow":["Bash(ls)"]}}');
    await trust.trust(project);
    expect(await projectRules()).toEqual(['Bash(ls)', 'Bash(curl:*)']);
    expect(await trust.contentChanges(project)).toEqual([]);
  });

  it('"Always allow in this project" keeps the file it writes trusted', async () => {
    write(settings(['Bash(ls)']));
    await trust.trust(project);
    await rules.addRule('project', 'allow', 'Bash(pwd)', { root: project });
    expect(await projectRules()).toEqual(['Bash(ls)', 'Bash(pwd)']);
  });

  it('"Always allow" never launders a change made before it: the file stays left out', async () => {
    write(settings(['Bash(ls)']));
    await trust.trust(project);
    write(settings(['Bash(ls)', 'Bash(curl:*)']));
    await rules.addRule('project', 'allow', 'Bash(pwd)', { root: project });
    expect(await projectRules()).toEqual([]);
  });

  it('revoking forgets the content: trusting by hand later (no record) admits nothing', async () => {
    write(settings(['Bash(ls)']));
    await trust.trust(project);
    await trust.revoke(project);
    await store.update((raw) => {
      raw.trusted_projects = [project];
    });
    expect(trust.isTrusted(project)).toBe(true);
    expect(await projectRules()).toEqual([]);
    expect((await trust.contentChanges(project))[0]).toMatchObject({ state: 'added' });
  });
});

describe('TrustedContent: the record itself', () => {
  let root: string;
  let file: string;
  let content: TrustedContent;
  const put = (rel: string, text: string) => {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  beforeEach(() => {
    root = join(realpathSync(tmp.dir), 'p2');
    mkdirSync(root);
    file = join(realpathSync(tmp.dir), 'state', 'trusted-content.json');
    content = new TrustedContent(file);
  });

  it('records every policy file the project holds, each admitted only with its trusted text', async () => {
    put('.mewbo/settings.json', 'm');
    put('.claude/settings.json', 'c');
    put('.claude/settings.local.json', 'l');
    put('.mcp.json', 'x');
    await content.record(root);
    for (const [rel, text] of [
      ['.mewbo/settings.json', 'm'],
      ['.claude/settings.json', 'c'],
      ['.claude/settings.local.json', 'l'],
      ['.mcp.json', 'x'],
    ] as const) {
      expect(await content.admits(root, rel, text)).toBe(true);
      expect(await content.admits(root, rel, `${text} `)).toBe(false);
    }
    expect(await content.admits(root, 'other.json', 'm')).toBe(false);
    expect(await content.changes(root)).toEqual([]);
    // 0600: a project's settings may hold a server's token.
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a root is the same through a symlink; forgetting it admits nothing', async () => {
    put('.mcp.json', 'x');
    const link = join(realpathSync(tmp.dir), 'link');
    symlinkSync(root, link);
    await content.record(link);
    expect(await content.admits(root, '.mcp.json', 'x')).toBe(true);
    await content.forget(link);
    expect(await content.admits(root, '.mcp.json', 'x')).toBe(false);
  });

  it('a file added since is shown whole as added; a file removed since is no change', async () => {
    put('.mewbo/settings.json', 'a\n');
    await content.record(root);
    put('.mcp.json', '{"mcpServers":{}}\n');
    rmSync(join(root, '.mewbo', 'settings.json'));
    const changes = await content.changes(root);
    expect(changes).toEqual([
      {
        file: '.mcp.json',
        state: 'added',
        diff: '--- /dev/null\n+++ b/.mcp.json\n@@ -0,0 +1,1 @@\n+{"mcpServers":{}}\n',
      },
    ]);
    expect(await content.changes(join(root, 'never-trusted'))).toEqual([]);
  });

  it('a project never trusted has every file it holds as added', async () => {
    put('.claude/settings.json', 'c\n');
    expect(await content.changes(root)).toMatchObject([
      { file: '.claude/settings.json', state: 'added' },
    ]);
  });

  it('keeps the text for the diff up to its limit; past it only the digest, and a change is shown whole', async () => {
    const line = `${'a'.repeat(63)}\n`;
    const atLimit = line.repeat(TRUSTED_TEXT_MAX_BYTES / line.length);
    expect(Buffer.byteLength(atLimit)).toBe(TRUSTED_TEXT_MAX_BYTES);
    put('.mewbo/settings.json', atLimit);
    const over = `${atLimit}b`;
    put('.mcp.json', over);
    await content.record(root);
    expect(await content.admits(root, '.mcp.json', over)).toBe(true);
    put('.mewbo/settings.json', `${atLimit}more\n`);
    put('.mcp.json', 'small\n');
    const [kept, whole] = await content.changes(root);
    expect(kept).toMatchObject({ file: '.mewbo/settings.json', state: 'changed' });
    expect(kept!.diff).toContain('+more');
    expect(kept!.diff).not.toContain('trusted version was over');
    expect(whole).toMatchObject({ file: '.mcp.json', state: 'changed' });
    expect(whole!.diff).toBe(
      `(the trusted version was over ${TRUSTED_TEXT_MAX_BYTES} bytes and is not kept: the file is shown whole)\n` +
        '--- /dev/null\n+++ b/.mcp.json\n@@ -0,0 +1,1 @@\n+small\n',
    );
  });

  it('a policy path under a file is no file; a policy path that is a folder is an error', async () => {
    writeFileSync(join(root, '.claude'), 'not a folder');
    await content.record(root);
    expect(await content.changes(root)).toEqual([]);
    mkdirSync(join(root, '.mcp.json'));
    await expect(content.changes(root)).rejects.toThrow(/EISDIR/);
  });

  it('a damaged store trusts nothing, and the next record replaces it', async () => {
    put('.mcp.json', 'x');
    for (const damaged of [
      'not json',
      '{"roots": []}',
      '{"roots": "x"}',
      '{"roots": 5}',
      'null',
      '{}',
    ]) {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, damaged);
      expect(await content.admits(root, '.mcp.json', 'x')).toBe(false);
      await content.record(root);
      expect(await content.admits(root, '.mcp.json', 'x')).toBe(true);
    }
  });

  it('records made at once are all kept (each reads the store afresh, one at a time)', async () => {
    const roots = ['r1', 'r2', 'r3'].map((r) => join(root, r));
    for (const r of roots) {
      mkdirSync(r);
      writeFileSync(join(r, '.mcp.json'), r);
    }
    await Promise.all(roots.map((r) => content.record(r)));
    for (const r of roots) expect(await content.admits(r, '.mcp.json', r)).toBe(true);
  });

  it("the app's own edit of a trusted file stays trusted; of a changed one it changes nothing", async () => {
    put('.mewbo/settings.json', 'v1');
    put('.mcp.json', 'm1');
    await content.record(root);
    await content.recordEdit(root, '.mewbo/settings.json', 'v1', 'v2');
    expect(await content.admits(root, '.mewbo/settings.json', 'v2')).toBe(true);
    expect(await content.admits(root, '.mcp.json', 'm1')).toBe(true);
    await content.recordEdit(root, '.mewbo/settings.json', 'tampered', 'v3');
    expect(await content.admits(root, '.mewbo/settings.json', 'v3')).toBe(false);
    expect(await content.admits(root, '.mewbo/settings.json', 'v2')).toBe(true);
    // A file the app creates (nothing before) is recorded beside the others.
    await content.recordEdit(root, '.claude/settings.json', null, 'new');
    expect(await content.admits(root, '.claude/settings.json', 'new')).toBe(true);
    expect(await content.admits(root, '.mcp.json', 'm1')).toBe(true);
  });

  it('an edit creating the first policy file of a root with no record records that file', async () => {
    await content.recordEdit(root, '.mewbo/settings.json', null, 'first');
    expect(await content.admits(root, '.mewbo/settings.json', 'first')).toBe(true);
  });

  it('a run trusts what its roots held at its start, in memory only; its own edits stay trusted there', async () => {
    put('.mcp.json', 'm1');
    await content.trustForRun([root]);
    put('.mcp.json', 'm2');
    expect(await content.admits(root, '.mcp.json', 'm1')).toBe(true);
    expect(await content.admits(root, '.mcp.json', 'm2')).toBe(false);
    expect(await content.changes(root)).toMatchObject([{ file: '.mcp.json', state: 'changed' }]);
    await content.recordEdit(root, '.mewbo/settings.json', null, 's1');
    expect(await content.admits(root, '.mewbo/settings.json', 's1')).toBe(true);
    // Nothing of the run's trust reaches the store: another process trusts none of it.
    const other = new TrustedContent(file);
    expect(await other.admits(root, '.mcp.json', 'm1')).toBe(false);
    expect(await other.admits(root, '.mewbo/settings.json', 's1')).toBe(false);
  });

  it("a run's edit of a root the store also records keeps both trusted", async () => {
    put('.mcp.json', 'm1');
    await content.record(root);
    await content.trustForRun([root]);
    await content.recordEdit(root, '.mcp.json', 'm1', 'm2');
    expect(await content.admits(root, '.mcp.json', 'm2')).toBe(true);
    expect(await new TrustedContent(file).admits(root, '.mcp.json', 'm2')).toBe(true);
  });
});
