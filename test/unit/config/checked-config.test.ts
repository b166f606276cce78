import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCheckedConfigFile } from '../../../electron/host/config/checked-config';
import { ConfigError } from '../../../electron/host/config/config-error';
import { loadConfigFile } from '../../../electron/host/config/load-config';
import { homePaths, type HomePaths } from '../../../electron/host/config/paths';
import { tempDir } from '../../helpers/temp';

// The record of the last configs/app.json text this build accepted (checked-config.ts): taken
// only for that very text, file and build; never for a text the reader refuses; and what it gives
// is exactly what the reader gives (config, defaults, warnings).

let temp: ReturnType<typeof tempDir> | undefined;
afterEach(() => {
  temp?.cleanup();
  temp = undefined;
});

function home(config?: unknown): HomePaths {
  temp = tempDir('mewbo-checked-config-');
  const paths = homePaths({ MEWBO_HOME: temp.dir });
  if (config !== undefined) writeConfig(paths, JSON.stringify(config));
  return paths;
}

function writeConfig(paths: HomePaths, text: string): void {
  mkdirSync(paths.configDir, { recursive: true });
  writeFileSync(paths.configFile, text);
}

const recordOf = (paths: HomePaths) => join(paths.cacheDir, 'checked-config.json');

/** Loads with build `build`, returning the config and the lines it warned. */
async function load(paths: HomePaths, build: string | null = 'build-1') {
  const warned: string[] = [];
  const config = await loadCheckedConfigFile(paths, (l) => warned.push(l), build);
  return { config, warned };
}

/** Makes the record say permission_mode is `mode`, so a load that takes it shows it was taken. */
function markRecord(paths: HomePaths, mode: string): void {
  const record = JSON.parse(readFileSync(recordOf(paths), 'utf8')) as {
    config: { permission_mode: string };
  };
  record.config.permission_mode = mode;
  writeFileSync(recordOf(paths), JSON.stringify(record));
}

describe('the checked config record', () => {
  it('is taken for the very text, file and build that made it, and for nothing else', async () => {
    const paths = home({ permission_mode: 'plan' });
    expect((await load(paths)).config.permission_mode).toBe('plan');
    // The control: the same text, file and build take the record (marked), not the file.
    markRecord(paths, 'auto');
    expect((await load(paths)).config.permission_mode).toBe('auto');
    // Another build checks the file again.
    markRecord(paths, 'auto');
    expect((await load(paths, 'build-2')).config.permission_mode).toBe('plan');
    // A changed text of the same length (so no size or time stands in for the text).
    markRecord(paths, 'auto');
    writeConfig(paths, '{"permission_mode":"ask "}');
    await expect(load(paths)).rejects.toBeInstanceOf(ConfigError);
    writeConfig(paths, JSON.stringify({ permission_mode: 'plan' }));
    markRecord(paths, 'auto');
    // Another home's file, same text.
    const other = homePaths({ MEWBO_HOME: join(temp!.dir, 'other') });
    writeConfig(other, JSON.stringify({ permission_mode: 'plan' }));
    mkdirSync(other.cacheDir, { recursive: true });
    writeFileSync(
      recordOf(other),
      readFileSync(recordOf(paths), 'utf8'), // says file: the first home's
    );
    expect((await load(other)).config.permission_mode).toBe('plan');
  });

  it('never records a text the reader refuses: its error comes back at every start', async () => {
    const paths = home({ agent: { shell_sandbox: 'yes' } });
    for (let i = 0; i < 2; i++) {
      const err = await load(paths).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).key).toBe('agent.shell_sandbox');
    }
    expect(existsSync(recordOf(paths))).toBe(false);
  });

  it("prints the reader's warnings again when it takes the record", async () => {
    const paths = home({ permission_mode: 'plan', colour: 'red' });
    const first = await load(paths);
    const second = await load(paths);
    expect(first.warned).toEqual([
      `warning: ${paths.configFile}: colour: unknown key "colour" is ignored`,
    ]);
    expect(second).toEqual(first);
  });

  it('a torn or foreign record is checked over, and replaced', async () => {
    const paths = home({ permission_mode: 'plan' });
    await load(paths);
    const whole = readFileSync(recordOf(paths), 'utf8');
    for (const bad of [whole.slice(0, whole.length / 2), 'null', '[]', '{"build":"build-1"}']) {
      writeFileSync(recordOf(paths), bad);
      expect((await load(paths)).config.permission_mode).toBe('plan');
      expect(readFileSync(recordOf(paths), 'utf8')).toBe(whole);
    }
  });

  it('code that was not built (no build id) always checks and records nothing', async () => {
    const paths = home({ permission_mode: 'plan' });
    expect((await load(paths, null)).config.permission_mode).toBe('plan');
    expect(existsSync(recordOf(paths))).toBe(false);
  });

  it('gives exactly what the reader gives, from the check and from the record', async () => {
    // Fragments of configs the reader accepts, mixed: defaults filled in, optional keys absent,
    // nested records, unknown keys (warnings).
    const fragments: Record<string, unknown>[] = [
      { permission_mode: 'plan' },
      { agent: { max_steps: 7, lsp: { enabled: false } } },
      { projects: { app: { path: '/srv/app', trusted: true, network_allow: ['*.example.com'] } } },
      { remote_projects: { box: { url: 'ssh://me@box.example.com/home/me/app' } } },
      { checkpoints: { enabled: false } },
      { colour: 'red' },
    ];
    await fc.assert(
      fc.asyncProperty(fc.subarray(fragments), fc.boolean(), async (picked, missing) => {
        const paths = home();
        if (!missing) writeConfig(paths, JSON.stringify(Object.assign({}, ...picked)));
        const warned: string[] = [];
        const expected = loadConfigFile(paths.configFile, (l) => warned.push(l));
        const checked = await load(paths);
        const recorded = await load(paths);
        expect(checked.config).toStrictEqual(expected);
        expect(recorded.config).toStrictEqual(expected);
        expect(recorded.warned).toEqual(warned);
        temp?.cleanup();
      }),
      { numRuns: 25 },
    );
  });
});
