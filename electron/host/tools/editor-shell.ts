import { errorPayload, type ErrorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { RESULT_CAP_CHARS } from '../shells/constants';
import type { StartRequest } from '../shells/shell-manager';
import type { ShellService } from '../shells/shell-service';
import type { ShellSession } from '../shells/shell-session';
import type { EditorTerminals } from './editor-terminals';
import type { ToolContext } from './tool';

// aider_shell_tool's commands in the editor's terminal (tools/editor-terminals.ts): the launch is
// the one a shell of the session gets (its sandbox, network grant and scrubbed environment), the
// editor runs and draws it. A foreground command's output and exit status come back as the same
// `shell` payload the app's own shells give; a background one is a shell of the session's manager
// (its id, cap, reads, kill, idle reaping, end with the session) whose output is the editor's.

export interface EditorShellRequest {
  command: string;
  cwd: string;
  timeoutS: number;
}

export async function runInEditor(
  ctx: ToolContext,
  shells: ShellService,
  terminals: EditorTerminals,
  req: EditorShellRequest,
): Promise<ToolPayload> {
  const launch = await shells.launchFor(ctx.sessionId, ctx.root, req.command);
  if ('refused' in launch) return launch.refused;
  const started = Date.now();
  try {
    const run = await terminals.run({
      argv: launch.argv,
      cwd: req.cwd,
      ...(ctx.callId ? { callId: ctx.callId } : {}),
      outputByteLimit: RESULT_CAP_CHARS,
      timeoutMs: Math.round(req.timeoutS * 1000),
      signal: ctx.signal,
    });
    const note = run.timedOut
      ? `\n[timed out after ${req.timeoutS} s: the editor's terminal was killed]\n`
      : '';
    return {
      kind: 'shell',
      command: req.command,
      cwd: req.cwd,
      stdout: (run.truncated ? '[the start of the output was dropped]\n' : '') + run.output + note,
      exit_code: run.timedOut ? 1 : (run.exitCode ?? 1),
      duration_ms: Date.now() - started,
      timed_out: run.timedOut,
      ...(run.signal && !run.timedOut ? { signal: run.signal } : {}),
      terminal_id: run.terminalId,
      sandbox: launch.sandbox,
      ...(launch.warnings.length ? { sandbox_warnings: launch.warnings } : {}),
    };
  } catch (err) {
    return editorFailed(req.command, err);
  } finally {
    launch.dispose();
  }
}

const editorFailed = (command: string, err: unknown): ErrorPayload =>
  errorPayload(
    'editor_terminal_failed',
    `The editor's terminal did not run the command: ${(err as Error).message}`,
    { command },
  );

/** A background shell in the editor's terminal: the session's shell, and the terminal it is in. */
export async function startInEditor(
  ctx: ToolContext,
  shells: ShellService,
  terminals: EditorTerminals,
  req: StartRequest,
): Promise<{ session: ShellSession; terminalId: string } | ErrorPayload> {
  let terminalId = '';
  const session = await shells.forSession(ctx.sessionId).start(req, async (tokenSuffix) => {
    const launch = await shells.launchFor(ctx.sessionId, ctx.root, req.command, tokenSuffix);
    if ('refused' in launch) return launch;
    try {
      const started = await terminals.start({
        argv: launch.argv,
        cwd: req.cwd,
        ...(ctx.callId ? { callId: ctx.callId } : {}),
        outputByteLimit: req.config.shells.buffer_chars,
      });
      terminalId = started.terminalId;
      started.child.onExit(() => launch.dispose());
      return {
        child: started.child,
        sandbox: launch.sandbox,
        warnings: launch.warnings,
        supervised: true,
      };
    } catch (err) {
      launch.dispose();
      return { refused: editorFailed(req.command, err) };
    }
  });
  return 'kind' in session ? session : { session, terminalId };
}
