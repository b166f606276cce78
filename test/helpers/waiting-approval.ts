import { ofType, type Harness } from '../integration/agent/harness';

/**
 * A session whose agent waits on approval of one shell command. Only the call is scripted: an
 * exhausted script answers "done", so several sessions can wait at once.
 */
export async function waitingShellApproval(harness: Harness, command: string) {
  harness.script.push({ toolCalls: [{ name: 'aider_shell_tool', args: { command } }] });
  const id = await harness.newSession();
  const from = await harness.send(id, `run ${command}`);
  const ev = await harness.waitFor(
    id,
    (e) => e.some((x) => x.type === 'run_state' && x.state === 'waiting'),
    'the approval',
  );
  return { id, from, request: ofType(ev, 'approval_request')[0]! };
}
