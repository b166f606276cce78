import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadState } from '../../../electron/host/tools/read-state';
import { apiContext, makeFixture, runApi, type Fixture } from './harness';
import { makePng } from '../../helpers/png';

// read_file rules that need one session across calls (dedup) or a fresh session per call.

let fx: Fixture;
afterEach(() => fx?.cleanup());

describe('read_file deduplication', () => {
  it("an agent's read counts as already read only once its result was recorded in the conversation", async () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\ntwo\n');
    const readState = new ReadState();
    const ctx = { ...apiContext(fx.root, readState), callId: 'call_1' };
    expect((await runApi(fx.root, 'read_file', { path: 'a.txt' }, ctx)).kind).toBe('file');
    // The run stopped before call_1's result was recorded: the model never saw it.
    const again = { ...ctx, callId: 'call_2' };
    expect((await runApi(fx.root, 'read_file', { path: 'a.txt' }, again)).kind).toBe('file');
    readState.confirm('call_2');
    const third = { ...ctx, callId: 'call_3' };
    expect(await runApi(fx.root, 'read_file', { path: 'a.txt' }, third)).toMatchObject({
      kind: 'file_unchanged',
    });
    // Compaction drops the result: the record goes with it.
    readState.forgetReads();
    expect((await runApi(fx.root, 'read_file', { path: 'a.txt' }, third)).kind).toBe('file');
  });

  it('a repeated read of the same unchanged slice returns a short note, not the content', async () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\ntwo\n');
    const ctx = apiContext(fx.root);
    const first = await runApi(fx.root, 'read_file', { path: 'a.txt' }, ctx);
    expect(first.kind).toBe('file');
    const second = await runApi(fx.root, 'read_file', { path: 'a.txt' }, ctx);
    expect(second).toMatchObject({ kind: 'file_unchanged', path: 'a.txt' });
    expect(JSON.stringify(second)).not.toContain('two');
    expect(String(second.message)).toMatch(/already read/);
  });

  it('a different slice of the same file is read in full', async () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\ntwo\nthree\n');
    const ctx = apiContext(fx.root);
    await runApi(fx.root, 'read_file', { path: 'a.txt', limit: 1 }, ctx);
    const other = await runApi(fx.root, 'read_file', { path: 'a.txt', offset: 1, limit: 1 }, ctx);
    expect(other).toMatchObject({ kind: 'file', start_line: 2, end_line: 2 });
    expect(String(other.content)).toMatch(/^ {5}2\ttwo\n\.\.\. \(truncated/);
  });

  it('the slice of a changed file is read anew, even with the same size and mtime', async () => {
    fx = makeFixture();
    const file = join(fx.root, 'a.txt');
    writeFileSync(file, 'aaa\n');
    utimesSync(file, 1_000_000, 1_000_000);
    const ctx = apiContext(fx.root);
    await runApi(fx.root, 'read_file', { path: 'a.txt' }, ctx);
    writeFileSync(file, 'bbb\n');
    utimesSync(file, 1_000_000, 1_000_000);
    const again = await runApi(fx.root, 'read_file', { path: 'a.txt' }, ctx);
    expect(again).toMatchObject({ kind: 'file', content: '     1\tbbb' });
  });

  it('an edit through the edit tools makes the next read fresh', async () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'x = 1\n');
    const ctx = apiContext(fx.root);
    await runApi(fx.root, 'read_file', { path: 'a.txt' }, ctx);
    await runApi(
      fx.root,
      'file_edit_tool',
      { file_path: 'a.txt', old_string: 'x = 1', new_string: 'x = 2' },
      ctx,
    );
    expect(await runApi(fx.root, 'read_file', { path: 'a.txt' }, ctx)).toMatchObject({
      kind: 'file',
      content: '     1\tx = 2',
    });
  });

  it('dedup state belongs to the session: another session reads in full, and forgetReads resets it', async () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\n');
    const state = new ReadState();
    await runApi(fx.root, 'read_file', { path: 'a.txt' }, apiContext(fx.root, state));
    expect((await runApi(fx.root, 'read_file', { path: 'a.txt' }, apiContext(fx.root))).kind).toBe(
      'file',
    );
    state.forgetReads();
    expect(
      (await runApi(fx.root, 'read_file', { path: 'a.txt' }, apiContext(fx.root, state))).kind,
    ).toBe('file');
  });

  it("forgetCall: only that call's record goes (an image left out of a request), not a later read's", () => {
    const state = new ReadState();
    state.markRead('/p/a.png', 1, 100, 'v1', 'call_1');
    state.confirm('call_1');
    expect(state.alreadyRead('/p/a.png', 1, 100, 'v1')).toBe(true);
    state.forgetCall('call_1');
    expect(state.alreadyRead('/p/a.png', 1, 100, 'v1')).toBe(false);
    // Read again by a second call: forgetting the first call again leaves the second's record.
    state.markRead('/p/a.png', 1, 100, 'v1', 'call_2');
    state.confirm('call_2');
    state.forgetCall('call_1');
    expect(state.alreadyRead('/p/a.png', 1, 100, 'v1')).toBe(true);
    state.forgetCall('call_2');
    expect(state.alreadyRead('/p/a.png', 1, 100, 'v1')).toBe(false);
  });

  it('with dedup off (the MCP server) every read returns the content', async () => {
    fx = makeFixture();
    writeFileSync(join(fx.root, 'a.txt'), 'one\n');
    const ctx = apiContext(fx.root, new ReadState({ dedup: false }));
    await runApi(fx.root, 'read_file', { path: 'a.txt' }, ctx);
    expect((await runApi(fx.root, 'read_file', { path: 'a.txt' }, ctx)).kind).toBe('file');
  });
});

describe('read_file paths', () => {
  it('accepts an absolute path inside the root and a narrowed root', async () => {
    fx = makeFixture();
    mkdirSync(join(fx.root, 'pkg'));
    writeFileSync(join(fx.root, 'pkg', 'a.txt'), 'in pkg\n');
    expect(
      await runApi(fx.root, 'read_file', { path: join(fx.root, 'pkg', 'a.txt') }),
    ).toMatchObject({ kind: 'file', path: 'pkg/a.txt' });
    expect(await runApi(fx.root, 'read_file', { path: 'a.txt', root: 'pkg' })).toMatchObject({
      kind: 'file',
      path: 'a.txt',
    });
  });

  it('a model-given root outside the session root is refused', async () => {
    fx = makeFixture();
    writeFileSync(join(fx.outside, 'a.txt'), 'x\n');
    expect(await runApi(fx.root, 'read_file', { path: 'a.txt', root: fx.outside })).toMatchObject({
      kind: 'error',
      code: 'path_validation',
    });
  });
});

describe('read_file on an image file', () => {
  it('returns the file as an image, whatever its name; an unchanged re-read is a short note', async () => {
    fx = makeFixture();
    const png = makePng(5, 4);
    writeFileSync(join(fx.root, 'shot.dat'), png);
    const ctx = apiContext(fx.root);
    const first = await runApi(fx.root, 'read_file', { path: 'shot.dat' }, ctx);
    expect(first).toMatchObject({
      kind: 'image',
      media_type: 'image/png',
      width: 5,
      height: 4,
      size_bytes: png.length,
      image: { media_type: 'image/png', data: png.toString('base64') },
    });
    const again = await runApi(fx.root, 'read_file', { path: 'shot.dat' }, ctx);
    expect(again).toMatchObject({ kind: 'file_unchanged' });
  });

  it("finds a JPEG's size past the first 8 KB (its frame header after a big EXIF block)", async () => {
    fx = makeFixture();
    const exif = Buffer.alloc(2 + 2 + 20_000);
    exif.writeUInt16BE(0xffe1, 0);
    exif.writeUInt16BE(20_002, 2);
    const sof = Buffer.from([
      0xff,
      0xc0,
      0,
      17,
      8,
      0x02,
      0x58,
      0x03,
      0x20,
      3,
      ...Array(12).fill(0),
    ]);
    writeFileSync(join(fx.root, 'p.jpg'), Buffer.concat([Buffer.from([0xff, 0xd8]), exif, sof]));
    const p = await runApi(fx.root, 'read_file', { path: 'p.jpg' }, apiContext(fx.root));
    expect(p).toMatchObject({ kind: 'image', media_type: 'image/jpeg', width: 800, height: 600 });
  });
});
