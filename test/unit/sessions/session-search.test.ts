import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findInLog, searchLog } from '../../../electron/host/sessions/session-search';
import { tempDir } from '../../helpers/temp';

const line = (o: object) => JSON.stringify(o);

describe('searching a session log for what was said', () => {
  it('finds text in user and agent messages, case-insensitively, with a snippet', async () => {
    const t = tempDir();
    try {
      const log = join(t.dir, 'events.jsonl');
      writeFileSync(
        log,
        [
          line({ type: 'session_created', title: 'Flaky test', seq: 0 }),
          line({ type: 'user_message', text: 'Why does CI fail?', seq: 1 }),
          line({ type: 'tool_call', name: 'read_file', args: { path: 'websocket.ts' }, seq: 2 }),
          line({
            type: 'assistant_message',
            text: 'The reconnect logic in the WebSocket transport races the first subscription.',
            seq: 3,
          }),
        ].join('\n') + '\n',
      );
      expect((await searchLog(log, 'websocket'))?.snippet).toContain('WebSocket transport');
      expect((await searchLog(log, 'ci fail'))?.snippet).toBe('Why does CI fail?');
      // Tool arguments and titles are not message text.
      expect(await searchLog(log, 'read_file')).toBeNull();
      expect(await searchLog(log, 'flaky')).toBeNull();
      expect(await searchLog(log, 'not said anywhere')).toBeNull();
    } finally {
      t.cleanup();
    }
  });

  it('matches a query with a quote (escaped in the file)', async () => {
    const t = tempDir();
    try {
      const log = join(t.dir, 'events.jsonl');
      writeFileSync(
        log,
        line({ type: 'user_message', text: 'rename "foo" to bar', seq: 0 }) + '\n',
      );
      expect((await searchLog(log, '"foo"'))?.snippet).toBe('rename "foo" to bar');
    } finally {
      t.cleanup();
    }
  });

  it('Ctrl+F over the unloaded part: each message before the window with how often it matches', async () => {
    const t = tempDir();
    try {
      const log = join(t.dir, 'events.jsonl');
      writeFileSync(
        log,
        [
          line({ type: 'user_message', text: 'Zebra? zebra!', seq: 0 }),
          line({ type: 'tool_call', name: 'zebra', args: {}, seq: 1 }),
          line({ type: 'assistant_message', text: 'no match here', seq: 2 }),
          line({ type: 'assistant_message', text: 'one ZEBRA', seq: 3 }),
          line({ type: 'user_message', text: 'zebra in the loaded window', seq: 4 }),
        ].join('\n') + '\n',
      );
      expect(await findInLog(log, 'zebra', 4)).toEqual([
        { seq: 0, count: 2 },
        { seq: 3, count: 1 },
      ]);
      // A quote is escaped in the log: the line filter must not skip its message.
      writeFileSync(log, line({ type: 'user_message', text: 'say "hi"', seq: 0 }) + '\n');
      expect(await findInLog(log, '"hi"', 1)).toEqual([{ seq: 0, count: 1 }]);
    } finally {
      t.cleanup();
    }
  });
});
