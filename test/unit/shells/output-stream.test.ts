import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ShellStreamFrame } from '../../../shared/protocol/shell-stream';
import { shellStreamFrameSchema } from '../../../shared/protocol/shell-stream';
import {
  FLOW_HIGH_WATERMARK_CHARS,
  STREAM_BATCH_MAX_CHARS,
  STREAM_BATCH_MS,
} from '../../../electron/host/shells/constants';
import { OutputStream } from '../../../electron/host/shells/output-stream';
import { RingBuffer } from '../../../electron/host/shells/ring-buffer';
import type { ShellManager } from '../../../electron/host/shells/shell-manager';
import type { ShellSession } from '../../../electron/host/shells/shell-session';
import { shellFixture, type ShellFixture } from './shell-fixture';

let f: ShellFixture;
afterEach(async () => {
  await f?.cleanup();
});

function setup(raw: Record<string, unknown> = {}): ShellManager {
  f = shellFixture(raw);
  return f.service.forSession('s_stream01');
}

async function start(m: ShellManager, command: string, tty = false): Promise<ShellSession> {
  const s = await m.start({ command, cwd: f.root, root: f.root, config: f.config, tty });
  if ('kind' in s) throw new Error(JSON.stringify(s));
  return s;
}

async function until(cond: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function collector() {
  const frames: ShellStreamFrame[] = [];
  const counts = { received: 0 };
  const sink = (frame: ShellStreamFrame) => {
    shellStreamFrameSchema.parse(frame);
    frames.push(frame);
    if (frame.type === 'shell_output') counts.received += frame.data.length;
  };
  const outputs = () =>
    frames.filter(
      (x): x is Extract<ShellStreamFrame, { type: 'shell_output' }> => x.type === 'shell_output',
    );
  const text = () =>
    outputs()
      .map((x) => x.data)
      .join('');
  const exited = () => frames.some((x) => x.type === 'shell_state' && x.shell.status !== 'running');
  return { frames, sink, outputs, text, exited, counts };
}

describe('shell output stream', () => {
  test('a subscriber gets the retained output replayed, then live output, then the exit, with contiguous cursors', async () => {
    const m = setup();
    const s = await start(m, 'echo first; read -r x; echo second');
    await m.read(s.id, { waitMs: 5000 });
    const c = collector();
    const sub = m.subscribe(s.id, undefined, c.sink)!;
    expect(c.frames[0]).toMatchObject({
      type: 'shell_state',
      shell: { shell_id: s.id, status: 'running' },
    });
    expect(c.text()).toBe('first\n');
    m.input(s.id, 'go\n');
    await until(c.exited, 'the exit frame');
    expect(c.text()).toBe('first\nsecond\n');
    let next = 0;
    for (const frame of c.outputs()) {
      expect(frame.cursor).toBe(next);
      next += frame.data.length;
    }
    expect(c.frames.at(-1)).toMatchObject({
      type: 'shell_state',
      shell: { status: 'exited', exit_code: 0 },
    });
    sub.dispose();
  });

  test('on a PTY, the echo of one keystroke reaches the subscriber without more output following it', async () => {
    const m = setup();
    const s = await start(m, 'cat', true);
    const c = collector();
    const sub = m.subscribe(s.id, undefined, c.sink)!;
    m.input(s.id, 'k');
    // The terminal echoes the one byte and cat waits for a line: nothing else comes.
    await until(() => c.text().includes('k'), 'the echo of one keystroke');
    expect(c.text()).toBe('k');
    sub.dispose();
  });

  test('a subscription from a cursor replays only what came after it; one from an evicted cursor reports missed characters', async () => {
    const m = setup({ shells: { buffer_chars: 1024 } });
    const s = await start(m, 'for i in $(seq 1 300); do echo "row $i"; done');
    await s.whenExited;
    const end = s.buffer.end;
    const late = collector();
    m.subscribe(s.id, end - 8, late.sink)!.dispose();
    expect(late.text()).toBe('row 300\n');
    const old = collector();
    m.subscribe(s.id, 0, old.sink)!.dispose();
    expect(old.outputs()[0]!.missed_characters).toBe(end - 1024);
    expect(old.text().length).toBe(1024);
  });

  test('output is batched: many small writes arrive in far fewer frames, none over the batch size', async () => {
    const m = setup();
    const s = await start(m, 'read -r x; for i in $(seq 1 5000); do echo "$i"; done');
    const c = collector();
    m.subscribe(s.id, undefined, c.sink);
    m.input(s.id, 'go\n');
    await until(c.exited, 'the exit frame');
    const lines = c.text().split('\n').filter(Boolean);
    expect(lines).toHaveLength(5000);
    expect(c.outputs().length).toBeLessThan(500);
    for (const frame of c.outputs())
      expect(frame.data.length).toBeLessThanOrEqual(STREAM_BATCH_MAX_CHARS);
  });

  test('a subscriber that does not ack pauses the producer; acks resume it and every character arrives', async () => {
    const m = setup();
    const total = 20_000_000;
    const s = await start(m, `head -c ${total} /dev/zero | tr '\\0' 'x'`);
    const c = collector();
    let acked = 0;
    const sub = m.subscribe(s.id, 0, c.sink)!;
    await until(() => s.stream.isPaused, 'the producer to pause');
    const atPause = s.buffer.end;
    await sleep(300);
    // Paused: the host read at most a kernel buffer more, and the unacked backlog is bounded by
    // the watermark, the one read that crossed it, and that kernel buffer's worth read after.
    const readAfterPause = s.buffer.end - atPause;
    expect(readAfterPause).toBeLessThan(256 * 1024);
    expect(c.counts.received - acked).toBeLessThanOrEqual(
      FLOW_HIGH_WATERMARK_CHARS + STREAM_BATCH_MAX_CHARS + readAfterPause,
    );
    expect(s.status).toBe('running');
    while (!c.exited()) {
      const received = c.counts.received;
      if (received > acked) {
        sub.ack(received - acked);
        acked = received;
      }
      await sleep(1);
    }
    expect(c.counts.received).toBe(total);
    expect(c.text()).toBe('x'.repeat(total));
  });

  test('on a PTY paused over and over, the subscriber gets exactly what the terminal wrote', async () => {
    const m = setup();
    const line = 'the quick brown fox jumps over the lazy dog 0123456789';
    const bytes = 8 * 1024 * 1024;
    const s = await start(m, `yes '${line}' | head -c ${bytes}`, true);
    const c = collector();
    let pauses = 0;
    const sub = m.subscribe(s.id, 0, (frame) => {
      c.sink(frame);
      if (s.stream.isPaused) pauses++;
      // A slow, uneven client: each frame is acked 100 to 160 ms later, longer than the shell
      // takes to write a high watermark's worth, so the PTY is paused and resumed many times.
      if (frame.type === 'shell_output')
        setTimeout(() => sub.ack(frame.data.length), 100 + (frame.data.length % 61));
    })!;
    await until(c.exited, 'the exit frame', 60_000);
    const expected = `${line}\n`
      .repeat(Math.ceil(bytes / (line.length + 1)))
      .slice(0, bytes)
      .replace(/\n/g, '\r\n');
    expect(pauses).toBeGreaterThan(0);
    expect(c.counts.received).toBe(expected.length);
    expect(c.text() === expected).toBe(true);
  });

  test('a paused shell does not stall another shell, and output goes only to its own subscribers', async () => {
    const m = setup();
    const fast = await start(m, 'yes fast-output-line');
    const fastSub = collector();
    m.subscribe(fast.id, 0, fastSub.sink);
    await until(() => fast.stream.isPaused, 'the fast shell to pause');
    const other = await start(m, 'read -r x; echo other-shell-says-hi');
    const otherSub = collector();
    m.subscribe(other.id, 0, otherSub.sink);
    m.input(other.id, 'go\n');
    await until(otherSub.exited, 'the other shell to finish');
    expect(otherSub.text()).toBe('other-shell-says-hi\n');
    expect(fast.stream.isPaused).toBe(true);
    expect(
      fastSub.outputs().every((x) => x.shell_id === fast.id && !x.data.includes('other-shell')),
    ).toBe(true);
    expect(
      otherSub.outputs().every((x) => x.shell_id === other.id && !x.data.includes('fast-output')),
    ).toBe(true);
  });

  test('a subscriber that stops acking stops holding the producer after the stall period', async () => {
    const m = setup();
    const s = await start(m, `head -c 5000000 /dev/zero | tr '\\0' 'y'; echo; echo END`);
    const c = collector();
    m.subscribe(s.id, 0, c.sink);
    await until(() => s.stream.isPaused, 'the producer to pause');
    const info = await s.whenExited;
    expect(info.exit_code).toBe(0);
    const tail = await m.read(s.id, { cursor: s.buffer.end - 4 });
    expect(tail).toMatchObject({ output: 'END\n' });
  });
});

describe('shell output batching under acks', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('an ack does not send the short tail that arrived since the last frame: output keeps going out in whole frames, the tail when the batch period ends', () => {
    vi.useFakeTimers();
    const ring = new RingBuffer(10 * STREAM_BATCH_MAX_CHARS);
    const stream = new OutputStream('sh_batch', ring, { pause() {}, resume() {} });
    const sizes: number[] = [];
    const snapshot = { type: 'shell_state', shell: {} } as unknown as ShellStreamFrame;
    const sub = stream.subscribe(
      undefined,
      (frame) => {
        if (frame.type === 'shell_output') sizes.push(frame.data.length);
      },
      snapshot,
    );
    const print = (chars: number) => {
      ring.append('x'.repeat(chars));
      stream.notifyAppend(chars);
    };
    const frame = STREAM_BATCH_MAX_CHARS;
    print(frame + 1000);
    expect(sizes).toEqual([frame]);
    // The client took the frame: what arrived since is shorter than a frame and stays.
    sub.ack(frame);
    expect(sizes).toEqual([frame]);
    print(frame - 500);
    expect(sizes).toEqual([frame, frame]);
    sub.ack(frame);
    vi.advanceTimersByTime(STREAM_BATCH_MS);
    expect(sizes).toEqual([frame, frame, 500]);
    stream.dispose();
  });
});
