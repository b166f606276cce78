import { statSync } from 'node:fs';
import { z } from 'zod';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import {
  narrowRoot,
  PathValidationError,
  pathErrorPayload,
  resolveInsideRoot,
} from '../fs/safe-path';
import { DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S, RESULT_CAP_CHARS } from '../shells/constants';
import type { ShellService } from '../shells/shell-service';
import { defineTool, type ToolContext } from './tool';
import { runInEditor, startInEditor } from './editor-shell';
import { groupDigits } from '../../../shared/group-digits';

const parameters = z.strictObject({
  command: z.string().min(1).describe('Shell command to execute (bash -c)'),
  cwd: z.string().optional().describe('Working directory, inside root (defaults to root)'),
  root: z
    .string()
    .optional()
    .describe('Project root for safe-path resolution; may only narrow the session root'),
  timeout: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_S)
    .optional()
    .describe(`Seconds before a foreground command is killed (default ${DEFAULT_TIMEOUT_S})`),
  run_in_background: z
    .boolean()
    .optional()
    .describe('Return a shell_id at once instead of waiting (read it with shell_session_tool)'),
  tty: z
    .boolean()
    .optional()
    .describe(
      'Allocate a pseudo-terminal (colours, isatty); with run_in_background the command can be driven interactively',
    ),
});

function resolveCwd(
  ctx: ToolContext,
  args: z.infer<typeof parameters>,
): { root: string; cwd: string } | ToolPayload {
  try {
    const root = narrowRoot(ctx.root, args.root);
    const cwd = args.cwd ? resolveInsideRoot(root, args.cwd, { label: 'cwd' }) : root;
    let isDir = false;
    try {
      isDir = statSync(cwd).isDirectory();
    } catch {
      isDir = false;
    }
    if (!isDir)
      return errorPayload('path_validation', `cwd '${args.cwd}' is not an existing directory`, {
        path: args.cwd,
      });
    return { root, cwd };
  } catch (err) {
    if (err instanceof PathValidationError) return pathErrorPayload(err);
    throw err;
  }
}

export const shellTool = defineTool({
  name: 'aider_shell_tool',
  description:
    'Run a shell command (bash -c) and return its merged stdout and stderr as `stdout`, its exit_code and ' +
    `duration_ms. A foreground command has no stdin (a pager or a password prompt returns at once) and is killed ` +
    `with its whole process group after \`timeout\` seconds (default ${DEFAULT_TIMEOUT_S}; the result then says ` +
    `timed_out and exit_code 1); processes it leaves behind are killed when it exits. Output over ` +
    `${groupDigits(RESULT_CAP_CHARS)} characters keeps its head and tail around a marker. For servers, ` +
    'watchers and anything long-running, set run_in_background: the result is a shell_id, and shell_session_tool ' +
    'reads, writes to, and kills it. Commands run sandboxed (see `sandbox` in the result): other projects and the ' +
    "app's config directory are unreachable, so do not retry a permission error in another way.",
  parameters,
  flags: { readOnly: false, approval: 'shell' },
  async run(ctx, args) {
    const shells = ctx.services.shells as ShellService | undefined;
    if (!shells)
      return errorPayload('service_unavailable', 'shells are not available in this host');
    const where = resolveCwd(ctx, args);
    if ('kind' in where) return where;
    const manager = shells.forSession(ctx.sessionId);
    const request = {
      command: args.command,
      cwd: where.cwd,
      root: ctx.root,
      config: ctx.config,
      tty: args.tty ?? false,
    };

    // An editor driving the session (`mewbo acp`) runs it in its terminal, confined the same way;
    // one to drive interactively (tty) stays the app's, as an editor's terminal takes no input.
    const terminals = ctx.services.editorTerminals;
    if (args.run_in_background) {
      const started =
        terminals && !request.tty
          ? await startInEditor(ctx, shells, terminals, request)
          : await manager.start(request);
      if ('kind' in started) return started;
      const { session, terminalId } =
        'terminalId' in started ? started : { session: started, terminalId: undefined };
      await ctx.emit({
        type: 'shell_started',
        shell_id: session.id,
        command: session.command,
        cwd: session.cwd,
      });
      void session.whenExited.then((info) =>
        ctx
          .emit({
            type: 'shell_exited',
            shell_id: info.shell_id,
            exit_code: info.exit_code,
            signal: info.signal,
          })
          .catch(() => {}),
      );
      const warnings = session.sandboxWarnings;
      return {
        kind: 'shell',
        command: session.command,
        cwd: session.cwd,
        shell_id: session.id,
        status: session.status,
        ...(terminalId ? { terminal_id: terminalId } : {}),
        sandbox: session.info().sandbox,
        ...(warnings.length ? { sandbox_warnings: warnings } : {}),
      };
    }

    const timeoutS = args.timeout ?? DEFAULT_TIMEOUT_S;
    if (terminals)
      return runInEditor(ctx, shells, terminals, {
        command: args.command,
        cwd: where.cwd,
        timeoutS,
      });
    const run = await manager.run({
      ...request,
      timeoutMs: Math.round(timeoutS * 1000),
      signal: ctx.signal,
    });
    if ('kind' in run) return run;
    const note = run.timedOut
      ? `\n[timed out after ${timeoutS} s: the command's process group was killed]\n`
      : '';
    return {
      kind: 'shell',
      command: args.command,
      cwd: where.cwd,
      stdout: run.result.text + note,
      exit_code: run.timedOut ? 1 : (run.info.exit_code ?? 1),
      duration_ms: run.info.duration_ms,
      timed_out: run.timedOut,
      ...(run.result.truncated ? { truncated_characters: run.result.truncated } : {}),
      ...(run.info.signal && !run.timedOut ? { signal: run.info.signal } : {}),
      ...(run.networkRefused.length ? { network_refused: run.networkRefused } : {}),
      sandbox: run.info.sandbox,
      ...(run.sandboxWarnings.length ? { sandbox_warnings: run.sandboxWarnings } : {}),
    };
  },
});
