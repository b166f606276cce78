import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHost, type HostProcess } from '../helpers/host-process';
import { tempDir } from '../helpers/temp';
import { descendantsOf } from '../../electron/host/shells/process-tree';
import { rssBytes } from '../../electron/host/system/proc-stat';

// Memory follows what is viewed: 60 sessions of about 2 MB each, opened one after another through
// the protocol the way the UI does (open, follow the topic, rename it, leave), must not make the
// host keep them. The host's whole process tree is measured from /proc right after the 10th and
// right after the 60th is left; this is a bound on memory, not on time.

const SESSIONS = 60;
const EVENTS_PER_SESSION = 1800;
const TEXT = 'lorem ipsum dolor sit amet, '.repeat(40); // ~1.1 kB a message: ~2 MB a session
const MIB = 1024 * 1024;

let home: ReturnType<typeof tempDir>;
let host: HostProcess | undefined;
afterEach(async () => {
  await host?.stop();
  home?.cleanup();
});

function writeSession(dir: string, n: number): string {
  const id = `s_mem${String(n).padStart(4, '0')}aaaa`;
  const folder = join(dir, id);
  mkdirSync(folder, { recursive: true });
  const ts = 1_700_000_000_000 + n * 1000;
  const lines = [
    JSON.stringify({
      type: 'session_created',
      title: `big ${n}`,
      project: null,
      root: null,
      seq: 0,
      ts,
    }),
  ];
  for (let i = 1; i < EVENTS_PER_SESSION; i++)
    lines.push(
      JSON.stringify({
        type: 'user_message',
        text: `${i} ${TEXT}`,
        message_id: `m_${i}`,
        seq: i,
        ts,
      }),
    );
  writeFileSync(join(folder, 'events.jsonl'), lines.join('\n') + '\n');
  writeFileSync(
    join(folder, 'meta.json'),
    JSON.stringify({ id, title: `big ${n}`, project: null, root: null, created_at: ts }),
  );
  return id;
}

function treeRss(pid: number): number {
  return [pid, ...descendantsOf(pid)].reduce((sum, p) => sum + rssBytes(p), 0);
}

describe('host memory over many sessions', () => {
  it('opening 60 sessions of ~2 MB one after another grows the process tree by < 40 MiB over the first 10', async () => {
    home = tempDir('mewbo-memory-');
    const ids = Array.from({ length: SESSIONS }, (_, n) =>
      writeSession(join(home.dir, 'sessions'), n),
    );
    host = await startHost(home.dir);
    const { client, close } = host.connect();
    let afterTenth = 0;
    try {
      for (const [n, id] of ids.entries()) {
        const opened = await client.invoke('sessions.open', { id });
        expect(opened.next).toBe(EVENTS_PER_SESSION);
        let seen = 0;
        let resolveSnap!: () => void;
        const snap = new Promise<void>((r) => (resolveSnap = r));
        const sub = client.subscribe(`session:${id}`, opened.next, (item) => {
          if ((item as { type?: string }).type === 'session_snapshot') resolveSnap();
          else seen++;
        });
        await snap;
        // An action that loads the session in the host, as sending or renaming does.
        await client.invoke('sessions.rename', { id, title: `viewed ${n}` });
        sub.unsubscribe();
        expect(seen).toBeGreaterThanOrEqual(1);
        if (n === 9) afterTenth = treeRss(host.child.pid!);
      }
      const afterSixtieth = treeRss(host.child.pid!);
      const grownMiB = (afterSixtieth - afterTenth) / MIB;
      console.log(
        `host tree RSS: ${(afterTenth / MIB).toFixed(1)} MiB after 10, ${(afterSixtieth / MIB).toFixed(1)} MiB after 60 (+${grownMiB.toFixed(1)} MiB)`,
      );
      expect(grownMiB).toBeLessThan(40);
    } finally {
      close();
    }
  }, 300_000);
});
