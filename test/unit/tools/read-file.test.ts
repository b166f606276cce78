import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ReadState } from '../../../electron/host/tools/read-state';
import { apiContext, makeFixture, runApi, type Fixture } from './harness';

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
