import { afterAll, beforeAll, expect, test } from 'vitest';
import { processesWithToken } from '../../electron/host/shells/process-tree';
import type { ShellManager } from '../../electron/host/shells/shell-manager';
import { shellFixture, type ShellFixture } from '../unit/shells/shell-fixture';

// 1,000 background shells started and killed, each with a child of its own, a few at a time:
// afterwards not one process of theirs may be left.

const CYCLES = 1000;
/** Shells in flight at once: enough to overlap spawns and kills, well under the 32-slot cap. */
const CONCURRENCY = 8;

let f: ShellFixture;
let m: ShellManager;
beforeAll(() => {
  f = shellFixture();
  m = f.service.forSession('s_cycles01');
});
afterAll(async () => {
  await f.cleanup();
});

test(`${CYCLES} background start/kill cycles leave zero processes behind`, async () => {
  let next = 0;
  const statuses = new Map<string, number>();
  const worker = async () => {
    while (next < CYCLES) {
      const i = next++;
      const tty = i % 2 === 0;
      const s = await m.start({
        command: `sleep 900 & echo ${i}; wait`,
        cwd: f.root,
        root: f.root,
        config: f.config,
        tty,
      });
      if ('kind' in s) throw new Error(`cycle ${i}: ${s.message}`);
      await m.read(s.id, { waitMs: 10_000, filter: new RegExp(`^${i}\\r?$`) });
      const killed = await m.kill(s.id);
      if (killed.kind !== 'shell_session') throw new Error(`cycle ${i}: ${JSON.stringify(killed)}`);
      statuses.set(killed.status, (statuses.get(killed.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  expect(Object.fromEntries(statuses)).toEqual({ killed: CYCLES });
  expect(processesWithToken(m.tokenPrefix)).toEqual([]);
}, 240_000);
