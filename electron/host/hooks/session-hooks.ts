import { homedir } from 'node:os';
import type { SessionEventBody } from '../../../shared/protocol/events';
import type { RulesService } from '../rules/rules-service';
import { policyRootOf } from '../remote/policy-root';
import type { RemoteTools } from '../remote/remote-tools';
import type { Session } from '../sessions/session';
import { STOP_HOOK_MAX_BLOCKS } from './constants';
import { runEventHooks } from './hook-runner';

// The hooks that belong to a session rather than to a tool call: SessionStart (before its first
// message), UserPromptSubmit (before each message: exit 2 drops the message, its stderr shown to
// the user), and Stop (when the root agent would finish: a block sends the reason to the model and
// the run goes on, at most STOP_HOOK_MAX_BLOCKS times in a row).

interface SessionHookInput {
  rules: RulesService | undefined;
  /** A project on an SSH host: its settings are read there (policyRootOf). */
  remote?: RemoteTools;
  session: Session;
  signal?: AbortSignal;
}

const rootOf = (session: Session) => session.meta.root ?? homedir();
const settingsOf = async (i: SessionHookInput, rules: RulesService) =>
  rules.load(await policyRootOf(i.remote, i.session.id, i.session.meta.root), i.session.id);
const appendTo = (session: Session) => (e: SessionEventBody) =>
  session.append(e).then(() => undefined);

/** Runs SessionStart (first message only) and UserPromptSubmit; true when the prompt may go on. */
export async function promptHooks(i: SessionHookInput & { prompt: string }): Promise<boolean> {
  if (!i.rules) return true;
  const root = rootOf(i.session);
  const { hooks } = await settingsOf(i, i.rules);
  if (!hooks.length) return true;
  const common = {
    hooks,
    root,
    sessionId: i.session.id,
    env: i.rules.env,
    confine: i.rules.confineHook,
    signal: i.signal,
    append: appendTo(i.session),
  };
  if (!i.session.events().some((e) => e.type === 'user_message'))
    await runEventHooks({ ...common, event: 'SessionStart', fields: { source: 'startup' } });
  const out = await runEventHooks({
    ...common,
    event: 'UserPromptSubmit',
    fields: { prompt: i.prompt },
  });
  return !out.blocked;
}

/** Runs the Stop hooks; true when one blocked (the agent continues with the reason). */
export async function stopHooksBlock(
  i: SessionHookInput & { root: string; blocksSoFar: number },
): Promise<boolean> {
  if (!i.rules || i.blocksSoFar >= STOP_HOOK_MAX_BLOCKS) return false;
  const { hooks } = await settingsOf(i, i.rules);
  if (!hooks.some((h) => h.event === 'Stop')) return false;
  const out = await runEventHooks({
    event: 'Stop',
    hooks,
    root: i.root,
    sessionId: i.session.id,
    fields: { stop_hook_active: i.blocksSoFar > 0 },
    env: i.rules.env,
    confine: i.rules.confineHook,
    signal: i.signal,
    append: appendTo(i.session),
  });
  return out.blocked;
}
