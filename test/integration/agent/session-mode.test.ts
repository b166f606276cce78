import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, ofType } from './harness';

// The session's own mode (its latest mode_change) wins over configs/app.json's permission_mode,
// both ways: a session switched to auto runs an edit the config would ask about, and a session
// switched to ask asks where the config would not.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const edit = {
  name: 'file_edit_tool',
  args: { file_path: 'notes.txt', old_string: 'alpha', new_string: 'beta' },
};

describe("a session's own permission mode", () => {
  it('auto set on the session runs an edit without asking, though the config says ask', async () => {
    h = await Harness.start({
      wire: 'openai',
      files: { 'notes.txt': 'alpha\n' },
      config: { permission_mode: 'ask' },
    });
    h.script.push({ toolCalls: [edit] }, { text: 'done' });
    const id = await h.newSession();
    await h.invoke('sessions.setMode', { id, mode: 'auto' });
    const events = await h.waitRunEnd(id, await h.send(id, 'edit it'));
    expect(ofType(events, 'approval_request')).toEqual([]);
    expect(readFileSync(join(h.project, 'notes.txt'), 'utf8')).toBe('beta\n');
  });

  it('ask set on the session asks before an edit, though the config says auto', async () => {
    h = await Harness.start({
      wire: 'openai',
      files: { 'notes.txt': 'alpha\n' },
      config: { permission_mode: 'auto' },
    });
    h.script.push({ toolCalls: [edit] }, { text: 'done' });
    const id = await h.newSession();
    await h.invoke('sessions.setMode', { id, mode: 'ask' });
    await h.send(id, 'edit it');
    const waiting = await h.waitFor(
      id,
      (ev) => ev.some((e) => e.type === 'approval_request'),
      'the approval request',
    );
    expect(ofType(waiting, 'approval_request')[0]!.tool).toBe('file_edit_tool');
    expect(readFileSync(join(h.project, 'notes.txt'), 'utf8')).toBe('alpha\n');
    await h.invoke('sessions.stop', { id });
  });
});
