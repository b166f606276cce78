import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Host } from '../../../electron/host/host';
import { tempDir } from '../../helpers/temp';

// The seed denies shells every *configured* project but the active one; projects opened from the
// picker are projects too, so a shell of one must not read or write another.

let dirs: ReturnType<typeof tempDir>[] = [];
let host: Host | undefined;
afterEach(async () => {
  await host?.dispose();
  host = undefined;
  for (const d of dirs) d.cleanup();
  dirs = [];
});

describe('the shell sandbox and projects opened from the picker', () => {
  it('a shell of one opened project cannot read or write another opened project', async () => {
    const home = tempDir('mewbo-regsb-home-');
    const work = tempDir('mewbo-regsb-work-');
    dirs.push(home, work);
    const a = join(work.dir, 'alpha');
    const b = join(work.dir, 'beta');
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(a, 'mine.txt'), 'alpha data\n');
    writeFileSync(join(b, 'secret.txt'), 'beta secret\n');
    host = await Host.create({ env: { ...process.env, MEWBO_HOME: home.dir } });
    const client = { clientId: 't', transport: 'local' as const };
    for (const path of [a, b]) {
      const r = await host.router.invoke('projects.openFolder', { path }, client);
      expect(r.ok).toBe(true);
    }
    const sid = (await host.sessions.create({ root: a })).id;
    const run = async (command: string) => {
      const r = await host!.shells
        .forSession(sid)
        .run({ command, cwd: a, root: a, config: host!.config, tty: false, timeoutMs: 20_000 });
      if ('kind' in r) throw new Error(r.message);
      return { code: r.info.exit_code, text: r.result.text };
    };
    expect(await run('cat mine.txt')).toMatchObject({
      code: 0,
      text: expect.stringContaining('alpha data'),
    });
    const read = await run(`cat ${join(b, 'secret.txt')}`);
    expect(read.code).not.toBe(0);
    expect(read.text).not.toContain('beta secret');
    const write = await run(`echo x > ${join(b, 'planted.txt')}`);
    expect(write.code).not.toBe(0);
  });
});
