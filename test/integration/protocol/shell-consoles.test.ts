import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../../electron/host/host';
import { tempDir } from '../../helpers/temp';
import type { ShellStreamFrame } from '../../../shared/protocol/shell-stream';
import type { ClientContext } from '../../../electron/host/rpc/router';

const client: ClientContext = { clientId: 'test', transport: 'local' };
let home: ReturnType<typeof tempDir> | undefined;
let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  home?.cleanup();
  host = undefined;
});

async function until(cond: () => boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function invoke(method: string, params: unknown) {
  const r = await host!.router.invoke(method, params, client);
  if (!r.ok) throw Object.assign(new Error(r.error.message), { code: r.error.code });
  return r.value as Record<string, unknown>;
}

describe('shell consoles over the protocol', () => {
  it('a console replays retained output, follows live, types into the shell, and sees it killed', async () => {
    home = tempDir('mewbo-consoles-');
    host = await Host.create({ env: { ...process.env, MEWBO_HOME: home.dir } });
    const { session } = (await invoke('sessions.create', {})) as { session: { id: string } };
    const started = await host.shells.forSession(session.id).start({
      command: 'echo ready; while read line; do echo "got:$line"; done',
      cwd: home.dir,
      root: home.dir,
      config: host.config,
      tty: false,
    });
    if ('kind' in started) throw new Error(started.message);
    const frames: ShellStreamFrame[] = [];
    const text = () => frames.flatMap((f) => (f.type === 'shell_output' ? [f.data] : [])).join('');
    const sub = await host.router.subscribe(
      `shell:${session.id}:${started.id}`,
      0,
      (f) => frames.push(f as ShellStreamFrame),
      client,
    );
    await until(() => text().includes('ready'), 'replayed output');

    await invoke('shells.input', { session_id: session.id, shell_id: started.id, data: 'hello\n' });
    await until(() => text().includes('got:hello'), 'echoed input');
    sub.ack?.(text().length);

    const listed = (await invoke('shells.list', { session_id: session.id })) as {
      shells: { shell_id: string; status: string }[];
    };
    expect(listed.shells).toContainEqual(
      expect.objectContaining({ shell_id: started.id, status: 'running' }),
    );

    const killed = await invoke('shells.kill', { session_id: session.id, shell_id: started.id });
    expect(killed.status).toBe('killed');
    await until(
      () => frames.some((f) => f.type === 'shell_state' && f.shell.status !== 'running'),
      'final state frame',
    );
    await expect(
      invoke('shells.input', { session_id: session.id, shell_id: started.id, data: 'late\n' }),
    ).rejects.toMatchObject({ code: 'shell_exited' });
    await expect(
      host.router.subscribe(`shell:${session.id}:shell_99`, 0, () => {}, client),
    ).rejects.toMatchObject({ code: 'not_found' });
    sub.dispose();
  });

  it('reports the sandbox state shells run under', async () => {
    home = tempDir('mewbo-consoles-');
    host = await Host.create({ env: { ...process.env, MEWBO_HOME: home.dir } });
    const status = (await invoke('shells.sandbox', {})) as { mode: string };
    // This machine's kernel has Landlock and the build compiles the launcher, so shells are confined.
    expect(status).toMatchObject({ mode: 'landlock', write_scope: 'project' });
  });
});
