import { RequestError } from '@agentclientprotocol/sdk';
import type * as acp from '@agentclientprotocol/sdk';
import { judgeCall, type JudgeScope, type Judgement } from '../../agent/dispatch';
import { newClientCallId } from '../../agent/ids';
import { RunAborted } from '../../agent/stop-reason';
import { PathValidationError, resolveInsideRoot } from '../../fs/safe-path';
import type { AnyTool } from '../../tools/tool';

// An external agent's client calls (fs/read_text_file, fs/write_text_file, terminal/create) judged
// as the app's own tool calls (issue 30 part 3): each is put to agent/dispatch.ts's judgeCall as
// the app's tool that does the same work (read_file, file_edit_tool, aider_shell_tool), so the
// user's permission rules (Bash(...) read by bash's grammar, Read/Edit paths), PreToolUse hooks,
// the session's mode, the approval card, the headless refusal and the policy files' approval in
// every mode hold for the agent exactly as for the app's own agent. There is no second judge.
//
// An agent such as Claude Code asks for permission itself (session/request_permission) and then
// carries the approved call out through the client. The user answered that card; asking again
// for the write or the command it named would be a second card for one decision. So a request
// the user allowed is remembered (AgentGrants) and carries out one client call it named (the same
// file, the same command line), as an approval of that call; deny rules and policy files are
// still judged on the call itself.

/** One of the agent's own requests the user allowed: the files and command line it named. */
export interface Grant {
  paths: ReadonlySet<string>;
  command?: string;
}

/** A client call to judge: the app's tool doing the same work, its arguments, what grant covers it. */
export interface ClientCall {
  tool: AnyTool;
  args: Record<string, unknown>;
  covers(grant: Grant): boolean;
}

export type Allowed = Extract<Judgement, { allow: true }>;

/** Judges one client call; resolves when it may run, else throws the RequestError the agent reads. */
export type ClientJudge = (call: ClientCall) => Promise<Allowed>;

/** The paths a permission request names (its locations, diffs and input), resolved in the root. */
function namedPaths(call: acp.ToolCallUpdate, root: string): Set<string> {
  const input = (call.rawInput ?? {}) as Record<string, unknown>;
  const given = [
    ...(call.locations ?? []).map((l) => l.path),
    ...(call.content ?? []).flatMap((c) => (c.type === 'diff' ? [c.path] : [])),
    ...['file_path', 'path', 'notebook_path'].map((k) => input[k]),
  ];
  const paths = new Set<string>();
  for (const p of given) {
    if (typeof p !== 'string' || !p) continue;
    try {
      paths.add(resolveInsideRoot(root, p));
    } catch (err) {
      if (!(err instanceof PathValidationError)) throw err;
    }
  }
  return paths;
}

/** The agent's requests the user allowed in the current turn, each good for one client call. */
export class AgentGrants {
  private grants: Grant[] = [];

  constructor(private readonly root: string) {}

  add(call: acp.ToolCallUpdate): void {
    const command = (call.rawInput as { command?: unknown } | undefined)?.command;
    this.grants.push({
      paths: namedPaths(call, this.root),
      ...(typeof command === 'string' ? { command } : {}),
    });
  }

  /** Uses up the first grant `covers` accepts; false when none does. */
  take(covers: (grant: Grant) => boolean): boolean {
    const i = this.grants.findIndex(covers);
    if (i === -1) return false;
    this.grants.splice(i, 1);
    return true;
  }

  /** A new turn: what was allowed for the last one carries nothing over. */
  clear(): void {
    this.grants = [];
  }
}

/**
 * The judge of one session's client calls: `scope` is the running turn's (null between turns:
 * the agent's files and terminals are served only while a turn runs, so someone is there to ask
 * or the mode to decide).
 */
export function clientJudge(opts: {
  root: string;
  scope(): JudgeScope | null;
  grants: AgentGrants;
}): ClientJudge {
  return async (call) => {
    const scope = opts.scope();
    if (!scope || scope.signal.aborted)
      throw RequestError.invalidRequest(
        { tool: call.tool.name },
        'no turn of this session is running: the app serves files and terminals to an agent only during a prompt turn',
      );
    let judged: Judgement;
    try {
      judged = await judgeCall(
        scope,
        { spec: { id: 'root' }, root: opts.root },
        call.tool,
        newClientCallId(),
        call.args,
        () => opts.grants.take(call.covers),
      );
    } catch (err) {
      if (err instanceof RunAborted)
        throw RequestError.requestCancelled(undefined, 'the user stopped the run');
      throw err;
    }
    if (!judged.allow) {
      const payload = judged.payload as { code?: string; message?: string };
      throw RequestError.invalidRequest({ code: payload.code }, payload.message);
    }
    return judged;
  };
}
