import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../helpers/fake-model-script';
import { Harness, ofType } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const BIG =
  Array.from(
    { length: 600 },
    (_, i) => `line ${i} of the big file: BIGMARK ${'x'.repeat(30)}`,
  ).join('\n') + '\n';
const isSummary = (r: RecordedRequest) => r.system.startsWith('You summarize');

describe('compaction', () => {
  it('summarizes older turns into a compaction event once the context outgrows the window, and rebuilds the context from it', async () => {
    h = await Harness.start({
      files: { 'big.txt': BIG, 'small.txt': 'tiny\n' },
      config: { permission_mode: 'auto', model: { context_window: 12_000 } },
    });
    h.script.push(
      { toolCalls: [{ name: 'read_file', args: { path: 'big.txt' } }] },
      { toolCalls: [{ name: 'read_file', args: { path: 'small.txt' } }] },
      (req) =>
        isSummary(req)
          ? { text: 'SUMMARY: the user asked to inspect files; big.txt holds 600 numbered lines.' }
          : { text: 'unexpected: not a summary request' },
      { toolCalls: [{ name: 'read_file', args: { path: 'big.txt' } }] },
      (req) =>
        isSummary(req) ? { text: 'SUMMARY 2: big.txt was read again.' } : { text: 'All read.' },
      { text: 'All read.' },
    );
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'inspect the files'));

    const compactions = ofType(events, 'compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(compactions[0]!.summary).toContain('SUMMARY');
    const after = h.script.requests[3]!;
    expect(isSummary(h.script.requests[2]!)).toBe(true);
    expect(h.script.requests[2]!.transcript).toContain('BIGMARK');
    expect(after.transcript).toContain('SUMMARY: the user asked');
    expect(after.transcript).not.toContain('BIGMARK');
    expect(after.transcript).toContain('tiny');
    // The log keeps everything; the read after compaction is not deduplicated away (the model lost it).
    const reads = ofType(events, 'tool_result').filter((r) => r.name === 'read_file');
    expect(reads).toHaveLength(3);
    expect(String(reads[2]!.payload.content ?? '')).toContain('BIGMARK');
  });

  it('a context-overflow error from the provider compacts and retries once', async () => {
    h = await Harness.start({
      files: { 'big.txt': BIG },
      config: { permission_mode: 'auto' },
      maxPromptChars: 20_000,
    });
    h.script.push(
      { toolCalls: [{ name: 'read_file', args: { path: 'big.txt' } }] },
      (req) =>
        isSummary(req)
          ? { text: 'SUMMARY: big.txt was read; it has 600 lines.' }
          : { text: 'not a summary' },
      { text: 'Read it: 600 lines.' },
    );
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'read big.txt'));
    expect(ofType(events, 'compaction')).toHaveLength(1);
    expect(ofType(events, 'assistant_message').at(-1)!.text).toBe('Read it: 600 lines.');
    expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'idle' });
  });

  it('an overflow that compaction cannot cure fails the run with a context_overflow error', async () => {
    h = await Harness.start({ maxPromptChars: 500 });
    const id = await h.newSession();
    const events = await h.waitRunEnd(id, await h.send(id, 'hello'));
    const error = ofType(events, 'error').at(-1)!;
    expect(error.code).toBe('context_overflow');
    expect(error.message).toMatch(/context window/);
    expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'failed' });
  });
});
