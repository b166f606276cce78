import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';

// Seed row 8: "you already have this slice" is said only of a result the model really has.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('read_file dedup in a run', () => {
  it('a re-read of a slice whose result was recorded is answered "already read"', async () => {
    h = await Harness.start({ files: { 'a.txt': 'alpha\n' } });
    const read = { toolCalls: [{ name: 'read_file', args: { path: 'a.txt' } }] };
    h.script.push(read, read, { text: 'same' });
    const id = await h.newSession();
    await h.send(id, 'read a.txt twice');
    const events = await h.waitRunEnd(id);
    const kinds = ofType(events, 'tool_result').map((r) => r.payload.kind);
    expect(kinds).toEqual(['file', 'file_unchanged']);
  });
});
