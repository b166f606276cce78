import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolPayload } from '../../../shared/tools/payload';
import { filePayloadSchema } from '../../../shared/tools/payload-schemas';
import { ReadState } from '../../../electron/host/tools/read-state';
import { apiContext, makeFixture, runApi, type Fixture } from '../../unit/tools/harness';
import { makeSwapper, stopRacer } from './swap-racer';

// Issue #14, route 3: read_file on things that never end. A FIFO (or a device) opened by name
// blocks a threadpool thread until someone writes, and 20 of them starve every other file
// operation of the process; an 8 TiB sparse file counted line by line never answers. read_file
// must refuse the first kind without blocking and answer the second with a bounded scan.

const FIFOS = 20;
const TIB = 1024 ** 4;
const SPARSE_BYTES = 8 * TIB;
const HEADER_LINES = 300;

let fx: Fixture;
const fifo = (i: number): string => join(fx.root, 'fifos', `p${i}`);
const ctx = () => apiContext(fx.root, new ReadState({ dedup: false }));
const read = (args: Record<string, unknown>): Promise<ToolPayload> =>
  runApi(fx.root, 'read_file', args, ctx());

/** Header long enough that the binary sniff sees only text, then a hole, then a few lines. */
function makeSparse(path: string): string[] {
  const header = Array.from(
    { length: HEADER_LINES },
    (_, i) => `header line ${i} ${'-'.repeat(40)}`,
  );
  writeFileSync(path, header.join('\n') + '\n');
  truncateSync(path, SPARSE_BYTES);
  const fd = openSync(path, 'r+');
  writeSync(fd, '\nlast-but-one\nthe last line\n', SPARSE_BYTES);
  closeSync(fd);
  return header;
}

beforeAll(() => {
  fx = makeFixture();
  mkdirSync(join(fx.root, 'fifos'));
  for (let i = 0; i < FIFOS; i++) execFileSync('mkfifo', [fifo(i)]);
  writeFileSync(join(fx.root, 'plain.txt'), 'plain\n');
});
afterAll(() => fx.cleanup());

describe.skipIf(process.platform !== 'linux')('read_file on FIFOs, devices and sockets', () => {
  it('the attack works: 20 blocking opens of FIFOs starve the threadpool', async () => {
    // The unprotected path in a child of its own (it would hang this process): open by name,
    // then a plain read queued behind.
    const script = `
      const fsp = require('node:fs/promises');
      const [dir, plain, n] = process.argv.slice(1);
      for (let i = 0; i < Number(n); i++) fsp.open(dir + '/p' + i, 'r').catch(() => {});
      fsp.readFile(plain, 'utf8').then(() => console.log('plain read done'));
      console.log('issued');
    `;
    const child = spawn(process.execPath, [
      '-e',
      script,
      join(fx.root, 'fifos'),
      join(fx.root, 'plain.txt'),
      String(FIFOS),
    ]);
    const exited = new Promise((r) => child.on('exit', r));
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    await new Promise<void>((resolve) => {
      const check = (): void => (out.includes('issued') ? resolve() : void setTimeout(check, 20));
      check();
    });
    // A writer's non-blocking open succeeds only while a reader is inside open() on the FIFO
    // (and lets that one through). Four such readers are the four libuv threads all blocked: the
    // plain read, queued behind all twenty opens, cannot have run.
    const release = (cap = FIFOS): number => {
      let released = 0;
      for (let i = 0; i < FIFOS && released < cap; i++) {
        try {
          closeSync(openSync(fifo(i), constants.O_WRONLY | constants.O_NONBLOCK));
          released++;
        } catch {
          // no reader waiting on this one
        }
      }
      return released;
    };
    let released = 0;
    while (released < 4) {
      released += release(4 - released);
      await new Promise((r) => setTimeout(r, 20));
    }
    const starvedAt = out;
    // Releasing every FIFO lets the plain read through at last.
    while (!out.includes('plain read done')) {
      release();
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    await exited;
    expect(starvedAt).not.toContain('plain read done');
  });

  it('read_file refuses 20 FIFOs at once without blocking, and other reads go on', async () => {
    const results = await Promise.all(
      Array.from({ length: FIFOS }, (_, i) => read({ path: `fifos/p${i}` })),
    );
    for (const p of results) {
      expect(p).toMatchObject({ kind: 'error', code: 'not_regular_file' });
      expect(String(p.message)).toMatch(/not a regular file/);
    }
    expect(await read({ path: 'plain.txt' })).toMatchObject({
      kind: 'file',
      content: '     1\tplain',
    });
  });

  it('read_file refuses a unix socket and a character device', async () => {
    const sock = join(fx.root, 'sock');
    const server: Server = createServer();
    await new Promise<void>((r) => server.listen(sock, r));
    try {
      expect(await read({ path: 'sock' })).toMatchObject({
        kind: 'error',
        code: 'not_regular_file',
      });
    } finally {
      server.close();
    }
    let device = false;
    try {
      execFileSync('mknod', [join(fx.root, 'zero'), 'c', '1', '5'], { stdio: 'ignore' });
      device = true;
    } catch {
      // not allowed to make device nodes here
    }
    if (device)
      expect(await read({ path: 'zero' })).toMatchObject({
        kind: 'error',
        code: 'not_regular_file',
      });
  });

  it('a file swapped with a FIFO under a racer never makes read_file block', async (t) => {
    writeFileSync(join(fx.root, 'swapme.txt'), 'regular\n');
    execFileSync('mkfifo', [join(fx.root, 'swapfifo')]);
    const swapper = makeSwapper(
      join(fx.home),
      join(fx.root, 'swapme.txt'),
      join(fx.root, 'swapfifo'),
    );
    if (!swapper) t.skip('no renameat2(RENAME_EXCHANGE) here');
    const racer = swapper!.start(join(fx.root, 'swapme.txt'), join(fx.root, 'swapfifo'));
    const outcomes = new Map<string, number>();
    try {
      for (let round = 0; round < 20; round++) {
        const batch = await Promise.all(
          Array.from({ length: FIFOS }, () => read({ path: 'swapme.txt' })),
        );
        for (const p of batch) {
          const key = p.kind === 'error' ? String(p.code) : p.kind;
          outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
        }
      }
    } finally {
      await stopRacer(racer);
    }
    console.log('read_file on a file swapped with a FIFO:', Object.fromEntries(outcomes));
    for (const k of outcomes.keys())
      expect(['file', 'not_regular_file', 'not_found', 'path_changed']).toContain(k);
  });
});

describe.skipIf(process.platform !== 'linux')('read_file on an 8 TiB sparse file', () => {
  let header: string[] = [];
  let sparse = '';
  beforeAll(() => {
    sparse = join(fx.root, 'huge.log');
    header = makeSparse(sparse);
  });

  it('the attack works: counting its lines does not end (an unbounded scan)', async () => {
    // The unprotected path: count every newline to the end, as read_file used to for a total.
    const script = `
      const fs = require('node:fs');
      const fd = fs.openSync(process.argv[1], 'r');
      const buf = Buffer.alloc(4 << 20);
      let pos = 0, lines = 0, reported = 0;
      for (;;) {
        const n = fs.readSync(fd, buf, 0, buf.length, pos);
        if (n === 0) { console.log('counted ' + lines); break; }
        for (let i = buf.indexOf(10); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
        pos += n;
        if (pos - reported >= 256 << 20) { reported = pos; console.log('scanned ' + pos); }
      }
    `;
    const child = spawn(process.execPath, ['-e', script, sparse]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    // 256 MiB scanned (4x what read_file may scan in a call) and still far from the end.
    await new Promise<void>((resolve) => {
      const check = (): void => (/scanned \d+/.test(out) ? resolve() : void setTimeout(check, 50));
      check();
    });
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGKILL');
    await exited;
    expect(out).not.toContain('counted');
  });

  it('answers its head with the lines and an unknown total', async () => {
    const p = await read({ path: 'huge.log', limit: 5 });
    expect(p).toMatchObject({
      kind: 'file',
      start_line: 1,
      end_line: 5,
      total_lines: null,
      truncated: true,
    });
    expect(String(p.content).split('\n').slice(0, 5)).toEqual(
      header.slice(0, 5).map((l, i) => `${String(i + 1).padStart(6)}\t${l}`),
    );
    expect(String(p.note)).toMatch(/total line count is unknown/);
  });

  it('answers its tail numbered from the end, saying where counting stopped', async () => {
    const p = await read({ path: 'huge.log', offset: -2 });
    expect(String(p.note)).toMatch(
      /counting stopped at line [\d,]+ \(byte [\d,]+ of 8,796,093,022,2\d\d\)/,
    );
    expect(p).toMatchObject({
      kind: 'file',
      content: '    -2\tlast-but-one\n    -1\tthe last line',
      start_line: -2,
      end_line: -1,
      total_lines: null,
      truncated: false,
      lines_from_end: true,
    });
  });

  it('a window inside the hole stops at the scan budget and says so', async () => {
    const p = await read({ path: 'huge.log', offset: HEADER_LINES + 5, limit: 10 });
    expect(p).toMatchObject({ kind: 'file', content: '', total_lines: null });
    expect(String(p.note)).toMatch(/was not reached: .* stopped at line 301 \(byte [\d,]+ of/);
  });

  it('20 reads at once all complete with the right shape', async () => {
    const args = [{ limit: 3 }, { offset: -2 }, { offset: HEADER_LINES - 1, limit: 2 }];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => read({ path: 'huge.log', ...args[i % args.length] })),
    );
    for (const [i, p] of results.entries()) {
      expect(p.kind).toBe('file');
      filePayloadSchema.parse(p);
      expect(p.total_lines).toBeNull();
      if (i % 3 === 0) expect(p).toMatchObject({ start_line: 1, end_line: 3 });
      if (i % 3 === 1) expect(p).toMatchObject({ start_line: -2, end_line: -1 });
      if (i % 3 === 2) {
        // The last header line, then the line that is the hole: cut, and not scanned to its end.
        const lines = String(p.content).split('\n');
        expect(lines[0]).toBe(`   ${HEADER_LINES}\t${header[HEADER_LINES - 1]}`);
        expect(lines[1]).toMatch(
          /^\s+301\t\0+ \.\.\. \[line cut: \d+ more bytes and more not scanned\]$/,
        );
      }
    }
  });
});
