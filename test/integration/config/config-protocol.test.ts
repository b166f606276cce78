import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppSettings } from '../../../shared/protocol/commands/settings';
import { Harness } from '../agent/harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  vi.restoreAllMocks();
});

const CLIENT = { clientId: 'test', transport: 'local' } as const;

describe('configs/app.json over the protocol', () => {
  it('a hand edit while the host runs reaches the settings topic with its problems named', async () => {
    h = await Harness.start();
    const file = join(h.home, 'configs', 'app.json');
    const seen: AppSettings[] = [];
    const sub = await h.host.router.subscribe(
      'settings',
      0,
      (s) => seen.push(s as AppSettings),
      CLIENT,
    );
    try {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      writeFileSync(
        `${file}.new`,
        JSON.stringify({ ...raw, permission_mode: 'plan', agent: { shell_sandbox: 'no' }, x: 1 }),
      );
      renameSync(`${file}.new`, file);
      await vi.waitFor(() => expect(seen.at(-1)?.permission_mode).toBe('plan'), {
        timeout: 10_000,
      });
      const now = seen.at(-1)!;
      expect(now.shell_sandbox).toBe(true);
      expect(now.config_problems.map((p) => [p.level, p.key])).toEqual([
        ['error', 'agent.shell_sandbox'],
        ['warning', 'x'],
      ]);
      expect((await h.invoke('settings.get', {})).config_problems).toHaveLength(2);
    } finally {
      await sub.dispose();
    }
  });

  it('settings, the model and the pairing switch changed at once all land in app.json', async () => {
    h = await Harness.start({ config: { devices: { host: '127.0.0.1' } } });
    const file = join(h.home, 'configs', 'app.json');
    await Promise.all([
      h.invoke('settings.update', { permission_mode: 'auto' }),
      h.invoke('settings.update', { tool_search: 'off' }),
      h.invoke('models.setSettings', { model: { name: 'claude-opus-4-1' } }),
      h.invoke('devices.enablePairing', {}),
    ]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      permission_mode: 'auto',
      agent: { tool_search: 'off' },
      model: { name: 'claude-opus-4-1' },
      devices: { host: '127.0.0.1', pairing_enabled: true },
      projects: { proj: { path: h.project } },
    });
  });

  it("settings carry the egress proxy's allowlist, local ports and switch from app.json", async () => {
    h = await Harness.start({
      config: { sandbox: { network: { allow: ['*.npmjs.org'], local_ports: [5432] } } },
    });
    expect((await h.invoke('settings.get', {})).network).toEqual({
      confine: true,
      allow: ['*.npmjs.org'],
      local_ports: [5432],
    });
  });

  it('a host whose app.json is broken still starts, with defaults, and says why', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation((line: string) => void errors.push(line));
    h = await Harness.start({ config: { permission_mode: 42, agent: { unknown_thing: true } } });
    const s = await h.invoke('settings.get', {});
    expect(s.permission_mode).toBe('ask');
    expect(s.config_problems.map((p) => p.key).sort()).toEqual([
      'agent.unknown_thing',
      'permission_mode',
    ]);
    expect(errors.join('\n')).toMatch(/error: .*app\.json: permission_mode: .*expected one of/);
    expect(errors.join('\n')).toMatch(/warning: .*app\.json: agent\.unknown_thing: unknown key/);
  });
});
