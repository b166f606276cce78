import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  nodeIo,
  readJsonOr,
  writeFileAtomic,
  writeJsonAtomic,
  type AtomicIo,
} from '../../../electron/host/store/atomic-json';
import { tempDir } from '../../helpers/temp';

let temp: ReturnType<typeof tempDir>;

/** The umask, read without setting it (Linux: /proc; elsewhere the usual 022). */
function processUmask(): number {
  const m = /^Umask:\s*([0-7]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? parseInt(m[1]!, 8) : 0o022;
}
afterEach(() => temp?.cleanup());

/** Real file-system calls, recorded in order: which path was synced, when the rename happened. */
function recordingIo(log: string[], fault?: { on: 'write' | 'rename'; code: string }): AtomicIo {
  const base = (p: unknown) =>
    String(p)
      .split('/')
      .pop()!
      .replace(/\.[0-9a-f]{12}\.tmp$/, '.TMP');
  return {
    ...nodeIo,
    rename: async (from, to) => {
      if (fault?.on === 'rename') throw Object.assign(new Error(fault.code), { code: fault.code });
      log.push(`rename ${base(from)} -> ${base(to)}`);
      return fsp.rename(from, to);
    },
    open: (async (path: string, flags: string, mode?: number) => {
      const handle = await fsp.open(path, flags, mode);
      const name = base(path);
      return new Proxy(handle, {
        get(target, prop) {
          if (prop === 'sync') return () => (log.push(`sync ${name}`), target.sync());
          if (prop === 'writeFile')
            return (data: string) => {
              if (fault?.on === 'write')
                return Promise.reject(Object.assign(new Error(fault.code), { code: fault.code }));
              log.push(`write ${name}`);
              return target.writeFile(data);
            };
          const v = Reflect.get(target, prop) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
    }) as AtomicIo['open'],
  };
}

describe('the one atomic writer of state files', () => {
  it('syncs the data before the rename and the directory after it', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'state', 'app.json');
    const log: string[] = [];
    await writeJsonAtomic(file, { a: 1 }, 0o644, recordingIo(log));
    expect(log).toEqual([
      'write .app.json.TMP',
      'sync .app.json.TMP',
      'rename .app.json.TMP -> app.json',
      `sync state`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe('{\n  "a": 1\n}\n');
  });

  it('gives the file exactly the mode asked for, whatever the umask', async () => {
    temp = tempDir();
    const file = join(temp.dir, 'secrets.json');
    // The umask cannot be set from a worker thread (where mutation runs put tests), so ask for a
    // mode the process's own umask strips: open() alone would not give it.
    const umask = processUmask();
    const wanted = 0o666 | umask;
    expect(wanted & umask).not.toBe(0);
    await writeFileAtomic(file, 'x', { mode: wanted & 0o777 });
    expect(statSync(file).mode & 0o777).toBe(wanted & 0o777);
    await writeFileAtomic(file, 'y', { mode: 0o600 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it.each(['write', 'rename'] as const)(
    'a failure at %s (disk full) leaves the old file whole and no temp file behind',
    async (on) => {
      temp = tempDir();
      const file = join(temp.dir, 'app.json');
      writeFileSync(file, 'old');
      await expect(
        writeFileAtomic(file, 'new', { io: recordingIo([], { on, code: 'ENOSPC' }) }),
      ).rejects.toThrow(/ENOSPC/);
      expect(readFileSync(file, 'utf8')).toBe('old');
      expect(readdirSync(temp.dir)).toEqual(['app.json']);
    },
  );
});

describe('the atomic writer: the directory sync and every handle', () => {
  /** Real calls; the directory's handle can be made to fail at open or at sync. */
  function dirFaultIo(fault: { at: 'open' | 'sync'; code: string } | null, handles: string[]) {
    return {
      ...nodeIo,
      open: (async (path: string, flags: string, mode?: number) => {
        const isDir = flags === 'r';
        if (isDir && fault?.at === 'open')
          throw Object.assign(new Error(fault.code), { code: fault.code });
        const handle = await fsp.open(path, flags, mode);
        handles.push(`open ${isDir ? 'dir' : 'tmp'}`);
        return new Proxy(handle, {
          get(target, prop) {
            if (prop === 'sync' && isDir && fault?.at === 'sync')
              return () =>
                Promise.reject(Object.assign(new Error(fault.code), { code: fault.code }));
            if (prop === 'close')
              return () => (handles.push(`close ${isDir ? 'dir' : 'tmp'}`), target.close());
            const v = Reflect.get(target, prop) as unknown;
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
          },
        });
      }) as AtomicIo['open'],
    } satisfies AtomicIo;
  }

  it('closes every handle it opened', async () => {
    temp = tempDir();
    const handles: string[] = [];
    await writeFileAtomic(join(temp.dir, 'a.json'), 'x', { io: dirFaultIo(null, handles) });
    expect(handles).toEqual(['open tmp', 'close tmp', 'open dir', 'close dir']);
  });

  it('a filesystem that refuses to sync a directory (EINVAL) still gets the file', async () => {
    for (const at of ['open', 'sync'] as const) {
      temp?.cleanup();
      temp = tempDir();
      const handles: string[] = [];
      const file = join(temp.dir, 'a.json');
      await writeFileAtomic(file, 'x', { io: dirFaultIo({ at, code: 'EINVAL' }, handles) });
      expect(readFileSync(file, 'utf8')).toBe('x');
      expect(handles.filter((h) => h.startsWith('open')).length).toBe(
        handles.filter((h) => h.startsWith('close')).length,
      );
    }
  });

  it('any other failure to sync the directory is the write failing', async () => {
    temp = tempDir();
    const handles: string[] = [];
    await expect(
      writeFileAtomic(join(temp.dir, 'a.json'), 'x', {
        io: dirFaultIo({ at: 'sync', code: 'EIO' }, handles),
      }),
    ).rejects.toMatchObject({ code: 'EIO' });
    expect(handles).toEqual(['open tmp', 'close tmp', 'open dir', 'close dir']);
  });

  it('a failed write still closes the temp file', async () => {
    temp = tempDir();
    const handles: string[] = [];
    const io = dirFaultIo(null, handles);
    const failing: AtomicIo = {
      ...io,
      open: (async (path: string, flags: string, mode?: number) => {
        const h = await io.open(path, flags, mode);
        if (flags === 'r') return h;
        return new Proxy(h, {
          get(target, prop) {
            if (prop === 'writeFile')
              return () => Promise.reject(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }));
            const v = Reflect.get(target, prop) as unknown;
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
          },
        });
      }) as AtomicIo['open'],
    };
    await expect(
      writeFileAtomic(join(temp.dir, 'a.json'), 'x', { io: failing }),
    ).rejects.toMatchObject({
      code: 'ENOSPC',
    });
    expect(handles).toEqual(['open tmp', 'close tmp']);
    expect(readdirSync(temp.dir)).toEqual([]);
  });
});

describe('reading a JSON state file', () => {
  it('a missing file is the fallback; broken JSON or an unreadable path is an error', async () => {
    temp = tempDir();
    expect(await readJsonOr(join(temp.dir, 'none.json'), { d: 1 })).toEqual({ d: 1 });
    writeFileSync(join(temp.dir, 'ok.json'), '{"a":2}');
    expect(await readJsonOr(join(temp.dir, 'ok.json'), null)).toEqual({ a: 2 });
    writeFileSync(join(temp.dir, 'bad.json'), '{');
    await expect(readJsonOr(join(temp.dir, 'bad.json'), null)).rejects.toBeInstanceOf(SyntaxError);
    await expect(readJsonOr(temp.dir, null)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
