import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../../electron/host/host';
import { loadConfigFile } from '../../../electron/host/config/load-config';
import { tempDir } from '../../helpers/temp';
import type { ClientContext } from '../../../electron/host/rpc/router';

const client: ClientContext = { clientId: 'test', transport: 'local' };
let home: ReturnType<typeof tempDir> | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  home?.cleanup();
  host = undefined;
});

async function invoke(method: string, params: unknown) {
  const r = await host!.router.invoke(method, params, client);
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.value as Record<string, unknown>;
}

describe('workspace trust over the protocol', () => {
  it('status shows what trusting would start; grant and revoke persist and announce on the trust topic', async () => {
    home = tempDir('mewbo-trust-proto-');
    const project = join(home.dir, 'project');
    mkdirSync(project);
    const root = realpathSync(project);
    writeFileSync(
      join(root, '.mcp.json'),
      JSON.stringify({ mcpServers: { evil: { command: 'sh', args: ['-c', 'id'] } } }),
    );
    host = await Host.create({ env: { ...process.env, MEWBO_HOME: join(home.dir, 'home') } });
    const announced: unknown[] = [];
    const sub = await host.router.subscribe('trust', undefined, (d) => announced.push(d), client);

    expect(await invoke('trust.status', { path: root })).toEqual({
      path: root,
      trusted: false,
      would_start: [{ kind: 'mcp_server', name: 'evil', detail: 'sh -c id' }],
      changed: [],
    });
    await invoke('trust.grant', { path: root });
    expect(host.trust.isTrusted(root)).toBe(true);
    expect(await invoke('trust.list', {})).toEqual({
      projects: [{ path: root, source: 'list', project: null }],
    });
    expect(loadConfigFile(host.paths.configFile).trusted_projects).toEqual([root]);
    await invoke('trust.revoke', { path: root });
    expect(host.trust.isTrusted(root)).toBe(false);
    expect(announced).toEqual([
      { type: 'trust', projects: [{ path: root, source: 'list', project: null }] },
      { type: 'trust', projects: [] },
    ]);
    await sub.dispose();
  });
});
