import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startHost, type HostProcess } from '../helpers/host-process';
import { tempDir } from '../helpers/temp';
import { EventLog } from '../../electron/host/store/event-log';

let home: ReturnType<typeof tempDir>;
let host: HostProcess | undefined;
afterEach(async () => {
  await host?.stop('SIGKILL');
  home?.cleanup();
});

describe('a host killed with SIGKILL during a burst of appends', () => {
  it('keeps every acknowledged event, and the log parses after restart', async () => {
    home = tempDir('mewbo-kill-');
    for (let round = 0; round < 3; round++) {
      host = await startHost(home.dir);
      const { client, close } = host.connect();
      const { session } = await client.invoke('sessions.create', { title: `round ${round}` });
      const acked: string[] = [];
      // Many concurrent appends in flight: each rename is one durable event, acked after fsync.
      let stop = false;
      const writers = Array.from({ length: 8 }, async (_, w) => {
        for (let i = 0; !stop; i++) {
          const title = `r${round}-w${w}-${i}`;
          try {
            await client.invoke('sessions.rename', { id: session.id, title });
            acked.push(title);
          } catch {
            return;
          }
        }
      });
      while (acked.length < 50 + round * 40) await new Promise((r) => setTimeout(r, 5));
      await host.stop('SIGKILL');
      stop = true;
      close();
      await Promise.all(writers);

      const file = join(home.dir, 'sessions', session.id, 'events.jsonl');
      const recovered = await EventLog.recover(file);
      const titles = new Set(
        recovered.flatMap((e) => (e.type === 'session_renamed' ? [e.title] : [])),
      );
      expect(acked.filter((t) => !titles.has(t))).toEqual([]);
      expect(recovered.map((e) => e.seq)).toEqual(recovered.map((_, i) => i));
      // After recovery the file is whole lines only.
      expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);

      host = await startHost(home.dir);
      const again = host.connect();
      const opened = await again.client.invoke('sessions.open', { id: session.id, limit: 20000 });
      expect(opened.events.length).toBe(recovered.length);
      again.close();
      await host.stop();
      host = undefined;
    }
    expect(readdirSync(join(home.dir, 'sessions')).filter((n) => n.startsWith('s_'))).toHaveLength(
      3,
    );
  });
});
