import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigStore, type ConfigChange } from '../../../electron/host/config/config-store';
import { rememberPairingInConfig } from '../../../electron/host/devices/remember-pairing';
import { FileSecretStore } from '../../../electron/host/secrets/file-secret-store';
import { tempDir } from '../../helpers/temp';

let temp: ReturnType<typeof tempDir>;
const stores: ConfigStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.dispose();
  temp?.cleanup();
});

function open(file: string, watch = false): { store: ConfigStore; warnings: string[] } {
  const warnings: string[] = [];
  const store = ConfigStore.open({ file, watch, warn: (l) => warnings.push(l) });
  stores.push(store);
  return { store, warnings };
}

const onDisk = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

function nextChange(store: ConfigStore, source: ConfigChange['source']): Promise<ConfigChange> {
  return new Promise((resolve) => {
    const sub = store.onDidChange((c) => {
      if (c.source !== source) return;
      sub.dispose();
      resolve(c);
    });
  });
}

describe('the config store', () => {
  it('loses no change when every writer of app.json and secrets.json writes at once (20 rounds)', async () => {
    for (let round = 0; round < 20; round++) {
      temp?.cleanup();
      temp = tempDir();
      const file = join(temp.dir, 'configs', 'app.json');
      const { store } = open(file);
      const secrets = new FileSecretStore(join(temp.dir, 'configs', 'secrets.json'), (fn) =>
        store.exclusive(fn),
      );
      await Promise.all([
        store.update((raw) => {
          raw.permission_mode = 'plan';
        }),
        rememberPairingInConfig(store, true),
        store.update((raw) => {
          raw.model = { provider: 'openai', name: `gpt-${round}` };
        }),
        store.update((raw) => {
          raw.agent = { ...(raw.agent as object), max_steps: round + 1 };
        }),
        store.update((raw) => {
          raw.agent = { ...(raw.agent as object), tool_search: 'off' };
        }),
        secrets.set('a', `one-${round}`),
        secrets.set('b', `two-${round}`),
      ]);
      expect(onDisk(file)).toEqual({
        permission_mode: 'plan',
        devices: { pairing_enabled: true },
        model: { provider: 'openai', name: `gpt-${round}` },
        agent: { max_steps: round + 1, tool_search: 'off' },
      });
      expect(await secrets.get('a')).toBe(`one-${round}`);
      expect(await secrets.get('b')).toBe(`two-${round}`);
      expect(store.config.agent.max_steps).toBe(round + 1);
      expect(store.config.devices.pairing_enabled).toBe(true);
    }
  });

  it('keeps a key edited by hand when an in-app change follows before the edit was noticed', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'configs', 'app.json');
    const { store } = open(file);
    await store.update((raw) => {
      raw.permission_mode = 'auto';
    });
    writeFileSync(file, JSON.stringify({ permission_mode: 'auto', agent: { max_steps: 7 } }));
    await store.update((raw) => {
      raw.devices = { pairing_enabled: true };
    });
    expect(onDisk(file)).toEqual({
      permission_mode: 'auto',
      agent: { max_steps: 7 },
      devices: { pairing_enabled: true },
    });
    expect(store.config.agent.max_steps).toBe(7);
  });

  it('loads a hand edit while running, in place, and announces it', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'configs', 'app.json');
    const { store } = open(file, true);
    const agent = store.config.agent;
    const seen = nextChange(store, 'file');
    // Saved the way editors do: a temp file renamed over the original.
    writeFileSync(`${file}.tmp`, JSON.stringify({ agent: { shell_sandbox: false, bogus: 1 } }));
    renameSync(`${file}.tmp`, file);
    const change = await seen;
    expect(change.config.agent.shell_sandbox).toBe(false);
    // Holders of a section see the edit: the object they hold was updated, not replaced.
    expect(agent.shell_sandbox).toBe(false);
    expect(change.problems.map((p) => p.key)).toEqual(['agent.bogus']);
    // Then an in-app change keeps the hand-edited keys, the unknown one included.
    await store.update((raw) => {
      raw.permission_mode = 'plan';
    });
    expect(onDisk(file)).toEqual({
      agent: { shell_sandbox: false, bogus: 1 },
      permission_mode: 'plan',
    });
  });

  it('does not announce its own writes as hand edits', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'configs', 'app.json');
    const { store } = open(file);
    const sources: string[] = [];
    store.onDidChange((c) => sources.push(c.source));
    await store.update((raw) => {
      raw.permission_mode = 'plan';
    });
    expect(await store.reload()).toBe(false);
    expect(sources).toEqual(['app']);
  });

  it('refuses an in-app change that makes a value invalid, and writes nothing', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'configs', 'app.json');
    const { store } = open(file);
    await store.update((raw) => {
      raw.permission_mode = 'plan';
    });
    await expect(
      store.update((raw) => {
        raw.agent = { max_steps: 0 };
      }),
    ).rejects.toThrow(/agent\.max_steps/);
    expect(onDisk(file)).toEqual({ permission_mode: 'plan' });
  });

  it('never writes over a file that is not JSON, and says so', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'app.json');
    writeFileSync(file, '{ "permission_mode": "plan", ');
    const { store, warnings } = open(file);
    expect(store.config.permission_mode).toBe('ask');
    expect(warnings.join('\n')).toMatch(/app\.json: not valid JSON/);
    await expect(
      store.update((raw) => {
        raw.permission_mode = 'auto';
      }),
    ).rejects.toThrow(/will not write over it/);
    expect(readFileSync(file, 'utf8')).toBe('{ "permission_mode": "plan", ');
  });
});
