import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  isLiveProcess,
  parseProcStat,
  readProcStat,
  rssBytes,
} from '../../../electron/host/system/proc-stat';

describe('/proc stat parsing', () => {
  it('counts fields from the last parenthesis, so a command name with spaces and ) is no trap', () => {
    expect(parseProcStat('4242 (evil) name) S 17 4242 4242 34816 4242 4194560 0')).toEqual({
      pid: 4242,
      state: 'S',
      ppid: 17,
      pgid: 4242,
      sid: 4242,
    });
    expect(parseProcStat('12 (a b) Z 1 12 9 0')).toMatchObject({ state: 'Z', ppid: 1, sid: 9 });
    expect(parseProcStat('garbage')).toBeNull();
    expect(parseProcStat('12 (x) S one 2 3')).toBeNull();
  });

  it('reads this process, its memory, and tells a zombie from a live process', async () => {
    const me = readProcStat(process.pid)!;
    expect(me.pid).toBe(process.pid);
    expect(me.ppid).toBe(process.ppid);
    expect(isLiveProcess(process.pid)).toBe(true);
    expect(rssBytes(process.pid)).toBeGreaterThan(1024 * 1024);
    // A child that has exited and been reaped is gone.
    const child = spawn('/bin/sh', ['-c', 'exit 0'], { stdio: 'ignore' });
    await new Promise((r) => child.once('exit', r));
    await new Promise((r) => setTimeout(r, 20));
    expect(isLiveProcess(child.pid!)).toBe(false);
    expect(readProcStat(2 ** 22 + 1)).toBeNull();
    expect(rssBytes(2 ** 22 + 1)).toBe(0);
  });
});
