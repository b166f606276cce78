import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { Harness, ofType } from '../agent/harness';

// The Notification hook (Claude Code's contract): when the agent starts waiting on the user for
// an approval, the user's hook runs with the message on stdin. Only an interactive host fires
// it (a headless `mewbo run` denies at once and has nobody to notify), so this drives the host's
// protocol, as the desktop window does.

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const notifyInto = (file: string) => ({
  hooks: {
    Notification: [
      { hooks: [{ type: 'command', command: `cat >> "${file}"; echo >> "${file}"` }] },
    ],
  },
});

async function until(pred: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 15_000;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

it('an approval the agent waits on runs the Notification hook with its message, once', async () => {
  h = await Harness.start({ wire: 'openai', files: { 'notes.txt': 'alpha\n' } });
  const out = join(h.home, 'notified.jsonl');
  // The hook list is read fresh for each call: written after start, it still applies.
  const appJson = join(h.home, 'configs', 'app.json');
  const config = JSON.parse(readFileSync(appJson, 'utf8'));
  writeFileSync(appJson, JSON.stringify({ ...config, ...notifyInto(out) }, null, 2));

  h.script.push(
    {
      toolCalls: [
        {
          name: 'file_edit_tool',
          args: { file_path: 'notes.txt', old_string: 'alpha', new_string: 'beta' },
        },
      ],
    },
    { text: 'Changed.' },
  );
  const id = await h.newSession();
  const from = await h.send(id, 'change alpha to beta');
  const waiting = await h.waitFor(id, (ev) => ev.some((e) => e.type === 'approval_request'));
  const request = ofType(waiting, 'approval_request')[0]!;
  await until(() => existsSync(out) && readFileSync(out, 'utf8').includes('}'), 'the hook');

  const lines = readFileSync(out, 'utf8').trim().split('\n');
  expect(lines).toHaveLength(1);
  const input = JSON.parse(lines[0]!);
  expect(input).toMatchObject({
    hook_event_name: 'Notification',
    session_id: id,
    cwd: h.project,
  });
  expect(input.message).toContain('file_edit_tool');

  await h.invoke('agent.decideApproval', {
    id,
    approval_id: request.approval_id,
    decision: 'allow',
  });
  await h.waitRunEnd(id, from);
  // Approving is not a new wait: the hook ran for the one approval only.
  expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(1);
});
