import { afterEach, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../helpers/fake-model-script';
import { CLEARED_SUMMARY } from '../../../electron/host/agent/agent-service';
import { Harness, ofType } from './harness';

// `/compact` and `/clear` (sessions.compact): the root agent's context is summarized or started
// over on the user's word, through the real host and a scripted model; the log keeps everything.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const NOTES = 'NOTESMARK: the notes file\n';
const isSummary = (r: RecordedRequest) => r.system.startsWith('You summarize');

/** A first exchange: the user's question (OLDMARK), a read of notes.txt, the answer. */
async function firstExchange(harness: Harness): Promise<string> {
  harness.script.push(
    { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
    { text: 'ANSWERMARK: read it.' },
  );
  const id = await harness.newSession();
  await harness.waitRunEnd(id, await harness.send(id, 'OLDMARK: read notes.txt'));
  return id;
}

/** A second exchange that reads notes.txt again; returns its events and its first request. */
async function secondExchange(harness: Harness, id: string) {
  const asked = harness.script.requests.length;
  harness.script.push(
    { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt' } }] },
    { text: 'Done.' },
  );
  const events = await harness.waitRunEnd(id, await harness.send(id, 'NEWMARK: read it again'));
  const reads = ofType(events, 'tool_result').filter((r) => r.name === 'read_file');
  return { request: harness.script.requests[asked]!, reread: reads.at(-1)! };
}

describe('sessions.compact', () => {
  it('/compact summarizes the context with the model now, and the next run starts from the summary', async () => {
    h = await Harness.start({ files: { 'notes.txt': NOTES }, config: { permission_mode: 'auto' } });
    const id = await firstExchange(h);
    const asked = h.script.requests.length;
    h.script.push((req) =>
      isSummary(req) ? { text: 'SUMMARYMARK: notes were read.' } : { text: 'not a summary' },
    );

    expect(await h.invoke('sessions.compact', { id })).toEqual({ compacted: true, message: null });

    const summarize = h.script.requests[asked]!;
    expect(isSummary(summarize)).toBe(true);
    expect(summarize.transcript).toContain('OLDMARK');
    expect(summarize.transcript).toContain('ANSWERMARK');
    const log = await h.events(id);
    const compaction = ofType(log, 'compaction').at(-1)!;
    expect(compaction).toMatchObject({
      agent_id: 'root',
      summary: 'SUMMARYMARK: notes were read.',
    });
    // Everything up to the compaction is summarized (the latest turn too, as a forced one).
    expect(compaction.upto_seq).toBe(compaction.seq - 2);
    expect(log[compaction.seq - 1]).toMatchObject({ type: 'usage', agent_id: 'root/compaction' });

    const { request, reread } = await secondExchange(h, id);
    expect(request.transcript).toContain('SUMMARYMARK');
    expect(request.transcript).toContain('NEWMARK');
    expect(request.transcript).not.toContain('OLDMARK');
    expect(request.transcript).not.toContain('ANSWERMARK');
    // read_file forgot the earlier read: its content is no longer in the context.
    expect(String(reread.payload.content ?? '')).toContain('NOTESMARK');
    // The log and the conversation keep everything.
    expect(ofType(await h.events(id), 'user_message').map((m) => m.text)).toEqual([
      'OLDMARK: read notes.txt',
      'NEWMARK: read it again',
    ]);
  });

  it('/clear starts the context over empty with no model call, and the next run sees none of the earlier messages', async () => {
    h = await Harness.start({ files: { 'notes.txt': NOTES }, config: { permission_mode: 'auto' } });
    const id = await firstExchange(h);
    const asked = h.script.requests.length;
    const newest = (await h.events(id)).at(-1)!.seq;

    expect(await h.invoke('sessions.compact', { id, clear: true })).toEqual({
      compacted: true,
      message: null,
    });

    expect(h.script.requests).toHaveLength(asked);
    const log = await h.events(id);
    expect(ofType(log, 'compaction')).toEqual([
      expect.objectContaining({ agent_id: 'root', summary: CLEARED_SUMMARY, upto_seq: newest }),
    ]);
    expect(ofType(log, 'usage').filter((u) => u.agent_id === 'root/compaction')).toEqual([]);

    const { request, reread } = await secondExchange(h, id);
    expect(request.transcript).toContain(CLEARED_SUMMARY);
    expect(request.transcript).toContain('NEWMARK');
    expect(request.transcript).not.toContain('OLDMARK');
    expect(request.transcript).not.toContain('ANSWERMARK');
    expect(request.transcript).not.toContain('NOTESMARK');
    expect(String(reread.payload.content ?? '')).toContain('NOTESMARK');

    // Right after a clear, nothing was said since: a second clear has nothing to do.
    expect((await h.invoke('sessions.compact', { id, clear: true })).compacted).toBe(true);
    expect(await h.invoke('sessions.compact', { id, clear: true })).toEqual({
      compacted: false,
      message: 'Nothing to compact yet.',
    });
  });

  it('Stop ends a /compact summary midway: nothing is written, the context is as it was, and a later /compact works', async () => {
    h = await Harness.start({ files: { 'notes.txt': NOTES }, config: { permission_mode: 'auto' } });
    const id = await firstExchange(h);
    const before = (await h.events(id)).length;
    const asked = h.script.requests.length;
    h.script.push({ text: 'SUMMARYMARK: half a summ', hang: true });

    const compacting = h.invoke('sessions.compact', { id });
    await h.script.waitForRequests(asked + 1);
    expect(isSummary(h.script.requests[asked]!)).toBe(true);
    await h.invoke('sessions.stop', { id });

    expect(await compacting).toEqual({
      compacted: false,
      message: 'Compacting was stopped; the context is as it was.',
    });
    // Stop ended the summary only: no compaction, no usage, no stopped run in the log.
    expect((await h.events(id)).slice(before)).toEqual([]);
    h.script.push({ text: 'SUMMARYMARK: notes were read.' });
    expect(await h.invoke('sessions.compact', { id })).toEqual({ compacted: true, message: null });
    const { request } = await secondExchange(h, id);
    expect(request.transcript).toContain('SUMMARYMARK: notes were read.');
    expect(request.transcript).not.toContain('half a summ');
  });

  it('is refused while a run is active, and leaves the log alone', async () => {
    h = await Harness.start();
    h.script.push({ text: 'Working on it. ', hang: true });
    const id = await h.newSession();
    await h.send(id, 'a long task');
    const busy = {
      compacted: false,
      message: 'The agent is working: stop it or wait until it finishes, then compact.',
    };
    expect(await h.invoke('sessions.compact', { id })).toEqual(busy);
    expect(await h.invoke('sessions.compact', { id, clear: true })).toEqual(busy);
    await h.invoke('sessions.stop', { id });
    const log = await h.waitRunEnd(id);
    expect(ofType(log, 'compaction')).toEqual([]);
    expect(h.script.requests.filter(isSummary)).toEqual([]);
  });

  it('is refused while a decision is pending since a restart (no run is live, a call is open)', async () => {
    h = await Harness.start({ wire: 'openai', files: { 'notes.txt': 'alpha\n' } });
    h.script.push({
      toolCalls: [
        {
          name: 'file_edit_tool',
          args: { file_path: 'notes.txt', old_string: 'alpha', new_string: 'beta' },
        },
      ],
    });
    const id = await h.newSession();
    await h.send(id, 'change it');
    await h.waitFor(id, (ev) => ev.some((e) => e.type === 'approval_request'), 'the approval');
    await h.restart();
    const pending = {
      compacted: false,
      message: 'The agent is waiting for a decision: answer it or stop the run, then compact.',
    };
    expect(await h.invoke('sessions.compact', { id })).toEqual(pending);
    expect(await h.invoke('sessions.compact', { id, clear: true })).toEqual(pending);
    expect(ofType(await h.events(id), 'compaction')).toEqual([]);
  });

  it('an empty session has nothing to compact or clear', async () => {
    h = await Harness.start();
    const id = await h.newSession();
    const nothing = { compacted: false, message: 'Nothing to compact yet.' };
    expect(await h.invoke('sessions.compact', { id })).toEqual(nothing);
    expect(await h.invoke('sessions.compact', { id, clear: true })).toEqual(nothing);
    expect(ofType(await h.events(id), 'compaction')).toEqual([]);
    expect(h.script.requests).toEqual([]);
  });

  it('with no model set up, /compact says how to set one up (and /clear still works)', async () => {
    h = await Harness.start();
    h.script.push({ text: 'Hello.' });
    const id = await h.newSession();
    await h.waitRunEnd(id, await h.send(id, 'hi'));
    // The same session after a restart with no key and no Ollama (a dead port answers its probe).
    delete h.env.ANTHROPIC_API_KEY;
    h.env.OLLAMA_BASE_URL = 'http://127.0.0.1:9';
    await h.restart();
    const answer = await h.invoke('sessions.compact', { id });
    expect(answer.compacted).toBe(false);
    expect(answer.message).toMatch(/No model is set/);
    expect(ofType(await h.events(id), 'compaction')).toEqual([]);
    expect(await h.invoke('sessions.compact', { id, clear: true })).toEqual({
      compacted: true,
      message: null,
    });
  });
});
