import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigStore } from '../../../electron/host/config/config-store';
import { RulesService } from '../../../electron/host/rules/rules-service';
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
