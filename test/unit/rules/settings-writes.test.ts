import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigStore } from '../../../electron/host/config/config-store';
import { RulesService } from '../../../electron/host/rules/rules-service';
import { FileSecretStore } from '../../../electron/host/secrets/file-secret-store';
import { tempDir } from '../../helpers/temp';
import { TRUST_ALL_PROJECTS } from '../../helpers/project-trust';

// Every writer of a settings file (a project's settings through RulesService, configs/app.json
// through ConfigStore, configs/secrets.json) reads and writes through verified descriptors and
// runs one read-modify-write of a file at a time (issue #25, part 6).

/** "Always allow" clicks at once: enough that a writer without a per-file queue loses some. */
const CONCURRENT_CLICKS = 24;

let t: ReturnType<typeof tempDir> | undefined;
const disposers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const d of disposers.splice(0)) await d();
  t?.cleanup();
  t = undefined;
});

function world() {
  t = tempDir('mewbo-settings-writes-');
  const base = realpathSync(t.dir);
  const project = join(base, 'project');
  const configs = join(base, 'home', 'configs');
  mkdirSync(project);
  mkdirSync(configs, { recursive: true });
  const rules = new RulesService({
    configFile: join(configs, 'app.json'),
    trust: TRUST_ALL_PROJECTS,
    env: {},
    updateUserConfig: () => Promise.reject(new Error('not used')),
  });
  return { base, project, configs, rules };
}

const projectRules = (project: string) =>
  (
    JSON.parse(readFileSync(join(project, '.mewbo', 'settings.json'), 'utf8')) as {
      permissions: { allow: string[] };
    }
  ).permissions.allow;

describe('settings writes', () => {
  it(`${CONCURRENT_CLICKS} "Always allow in this project" clicks at once all land in .mewbo/settings.json`, async () => {
    const w = world();
    const added = Array.from({ length: CONCURRENT_CLICKS }, (_, i) => `Bash(echo ${i}:*)`);
    const results = await Promise.all(
      added.map((r) => w.rules.addRule('project', 'allow', r, { root: w.project })),
    );
    expect(results.every(Boolean)).toBe(true);
    expect(projectRules(w.project).sort()).toEqual([...added].sort());
  });

  it('removals and additions of one file at once keep every other rule', async () => {
    const w = world();
    for (const r of ['Bash(a:*)', 'Bash(b:*)', 'Bash(c:*)'])
      await w.rules.addRule('project', 'allow', r, { root: w.project });
    await Promise.all([
      w.rules.removeRule('project', 'allow', 'Bash(b:*)', { root: w.project }),
      w.rules.addRule('project', 'allow', 'Bash(d:*)', { root: w.project }),
      w.rules.removeRule('project', 'allow', 'Bash(a:*)', { root: w.project }),
    ]);
    expect(projectRules(w.project).sort()).toEqual(['Bash(c:*)', 'Bash(d:*)']);
  });

  it('a settings file named outside the known ones is refused, relative or absolute', async () => {
    const w = world();
    await expect(
      w.rules.removeRule('project', 'allow', 'Bash', { root: w.project, file: '../escape.json' }),
    ).rejects.toThrow('is not a settings file');
    await expect(
      w.rules.removeRule('project', 'allow', 'Bash', {
        root: w.project,
        file: join(w.base, 'escape.json'),
      }),
    ).rejects.toThrow('is not a settings file');
  });

  it('a .mewbo directory that is a link is refused, naming the link', async () => {
    const w = world();
    mkdirSync(join(w.base, 'elsewhere'));
    symlinkSync(join(w.base, 'elsewhere'), join(w.project, '.mewbo'));
    await expect(
      w.rules.addRule('project', 'allow', 'Bash(ls)', { root: w.project }),
    ).rejects.toThrow(`lies under ${join(w.project, '.mewbo')}, a symbolic link`);
  });

  it('configs/app.json as a link: a Settings change is refused and the link target is untouched', async () => {
    const w = world();
    const target = join(w.base, 'dotfiles.json');
    writeFileSync(target, '{"permission_mode":"ask"}\n');
    symlinkSync(target, join(w.configs, 'app.json'));
    const store = ConfigStore.open({
      file: join(w.configs, 'app.json'),
      watch: false,
      warn: () => {},
    });
    disposers.push(() => store.dispose());
    await expect(
      store.update((raw) => {
        raw.permission_mode = 'auto';
      }),
    ).rejects.toThrow('app.json is a symbolic link');
    expect(readFileSync(target, 'utf8')).toBe('{"permission_mode":"ask"}\n');
  });

  it('configs/secrets.json as a link: keys are neither read from nor written to its target', async () => {
    const w = world();
    const target = join(w.base, 'planted.json');
    writeFileSync(target, JSON.stringify({ version: 1, secrets: { anthropic: 'sk-planted' } }));
    symlinkSync(target, join(w.configs, 'secrets.json'));
    const secrets = new FileSecretStore(join(w.configs, 'secrets.json'));
    await expect(secrets.get('anthropic')).rejects.toThrow('is a symbolic link');
    await expect(secrets.set('anthropic', 'sk-real')).rejects.toThrow('is a symbolic link');
    expect(readFileSync(target, 'utf8')).toContain('sk-planted');
  });
});
