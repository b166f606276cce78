import { afterEach, expect, test } from 'vitest';
import { shellFixture, type ShellFixture } from './shell-fixture';

let f: ShellFixture;
afterEach(async () => {
  await f?.cleanup();
});

test('a PTY whose process exits while flow control holds it paused loses none of its last output', async () => {
  f = shellFixture();
  const m = f.service.forSession('s_ptyexit1');
  // More than the high watermark, so the stream pauses; the rest fits in the kernel's buffers,
  // so the command exits while paused. Nobody acks.
  for (const total of [104_000, 110_000, 118_000]) {
    const s = await m.start({
      command: `head -c ${total} /dev/zero | tr '\\0' x`,
      cwd: f.root,
      root: f.root,
      config: f.config,
      tty: true,
    });
    if ('kind' in s) throw new Error(s.message);
    const sub = m.subscribe(s.id, 0, () => {})!;
    const info = await s.whenExited;
    expect(info.exit_code).toBe(0);
    expect(s.buffer.end).toBe(total);
    sub.dispose();
  }
});
