import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import {
  listShellRecords,
  loadShellRecord,
  nextShellNumber,
  saveShellRecord,
} from '../../../electron/host/shells/shell-records';
import type { ShellInfo } from '../../../shared/tools/shell-payload';
import { tempDir } from '../../helpers/temp';

const info = (id: string, status: ShellInfo['status'], started: number): ShellInfo => ({
  shell_id: id,
  command: 'npm run dev',
  cwd: '/work/app',
  background: true,
  tty: false,
  status,
  exit_code: status === 'exited' ? 0 : null,
  signal: null,
  kill_reason: null,
  started_at: started,
  ended_at: status === 'running' ? null : started + 10,
  duration_ms: 10,
  cursor: 12,
  urls: [],
  sandbox: { mode: 'off', reason: 'agent.shell_sandbox is false' },
});

describe('records of ended shells', () => {
  it('keep output and state; a shell recorded while running reads as lost with the host', async () => {
    const t = tempDir();
    try {
      const dir = join(t.dir, 'shells');
      await saveShellRecord(dir, {
        info: info('shell_2', 'running', 2),
        start: 5,
        output: 'ready\n',
      });
      await saveShellRecord(dir, {
        info: info('shell_1', 'exited', 1),
        start: 0,
        output: 'done\n',
      });
      const r = loadShellRecord(dir, 'shell_2')!;
      expect(r.output).toBe('ready\n');
      expect(r.start).toBe(5);
      expect(r.info.status).toBe('killed');
      expect(r.info.kill_reason).toBe('lost');
      expect(listShellRecords(dir).map((x) => x.info.shell_id)).toEqual(['shell_1', 'shell_2']);
      // A live shell's own record is left out (the host lists it from memory, unread).
      expect(listShellRecords(dir, new Set(['shell_2'])).map((x) => x.info.shell_id)).toEqual([
        'shell_1',
      ]);
      // A new host numbers its shells after the recorded ones: shell_1 is never reused.
      expect(nextShellNumber(listShellRecords(dir))).toBe(3);
      expect(loadShellRecord(dir, '../etc/passwd')).toBeNull();
      expect(nextShellNumber(listShellRecords(join(t.dir, 'none')))).toBe(1);
    } finally {
      t.cleanup();
    }
  });
});
