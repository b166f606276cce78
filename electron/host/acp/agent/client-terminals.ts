import {
  methods,
  type AgentContext,
  type TerminalOutputResponse,
  type WaitForTerminalExitResponse,
} from '@agentclientprotocol/sdk';
import type {
  EditorBackground,
  EditorRun,
  EditorRunRequest,
  EditorStartRequest,
  EditorTerminals,
} from '../../tools/editor-terminals';
import { clientErrorText } from './client-error';
import { CLIENT_FS_TIMEOUT_MS } from './constants';
import { EditorTerminalChild } from './editor-terminal-child';

// The editor's terminals for aider_shell_tool (`mewbo acp`), when the client offers terminal/*:
// terminal/create with the app's confined launch (tools/editor-terminals.ts), the terminal shown
// on the call's card at once. A foreground command: terminal/wait_for_exit bounded by the call's
// timeout, then terminal/output and terminal/release; Stop or the turn's end kills the terminal
// without waiting on the editor, so a cancel never waits on it. A background shell outlives the
// turn: its terminal is read and ended by EditorTerminalChild, for the session's shell manager.

export function clientEditorTerminals(
  client: AgentContext,
  offered: boolean | undefined,
  sessionId: string,
  turnEnded: AbortSignal,
  /** Draws the terminal on the tool call's card (a tool_call_update in the turn's order). */
  show: (callId: string, terminalId: string) => void,
): EditorTerminals | undefined {
  if (!offered) return undefined;
  /** A request bounded by `signal` and the editor's answer time. */
  const bounded = (signal?: AbortSignal) => ({
    cancellationSignal: AbortSignal.any([
      ...(signal ? [signal] : []),
      AbortSignal.timeout(CLIENT_FS_TIMEOUT_MS),
    ]),
    stopWaitingOnCancel: true,
  });
  /** terminal/create of the launch; the terminal is drawn on its call's card at once. */
  const create = async (req: EditorStartRequest, stop: AbortSignal): Promise<string> => {
    const { terminalId } = await client
      .request(
        methods.client.terminal.create,
        {
          sessionId,
          command: req.argv[0]!,
          args: req.argv.slice(1),
          env: [],
          cwd: req.cwd,
          outputByteLimit: req.outputByteLimit,
        },
        bounded(stop),
      )
      .catch((err: unknown) => {
        throw new Error(clientErrorText(err), { cause: err });
      });
    if (req.callId) show(req.callId, terminalId);
    return terminalId;
  };
  return {
    async start(req: EditorStartRequest): Promise<EditorBackground> {
      const terminalId = await create(req, turnEnded);
      return { terminalId, child: new EditorTerminalChild(client, { sessionId, terminalId }) };
    },
    async run(req: EditorRunRequest): Promise<EditorRun> {
      const stop = AbortSignal.any([req.signal, turnEnded]);
      const terminalId = await create(req, stop);
      const ids = { sessionId, terminalId };
      const release = () =>
        client.request(methods.client.terminal.release, ids, bounded()).catch(() => {});
      const timeout = AbortSignal.timeout(req.timeoutMs);
      const exited: WaitForTerminalExitResponse | null = await client
        .request<WaitForTerminalExitResponse>(methods.client.terminal.waitForExit, ids, {
          cancellationSignal: AbortSignal.any([stop, timeout]),
          stopWaitingOnCancel: true,
        })
        .catch(() => null);
      if (!exited && stop.aborted) {
        void client
          .request(methods.client.terminal.kill, ids, bounded())
          .catch(() => {})
          .then(release);
        throw new Error('stopped');
      }
      try {
        if (!exited) await client.request(methods.client.terminal.kill, ids, bounded(stop));
        const out: TerminalOutputResponse = await client.request<TerminalOutputResponse>(
          methods.client.terminal.output,
          ids,
          bounded(stop),
        );
        const status = exited ?? out.exitStatus ?? null;
        return {
          terminalId,
          output: out.output,
          truncated: out.truncated,
          exitCode: status?.exitCode ?? null,
          signal: status?.signal ?? null,
          timedOut: !exited,
        };
      } catch (err) {
        throw new Error(clientErrorText(err), { cause: err });
      } finally {
        void release();
      }
    },
  };
}
