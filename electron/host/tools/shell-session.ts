import { z } from 'zod';
import { errorPayload } from '../../../shared/tools/payload';
import { MAX_WAIT_MS, RESULT_CAP_CHARS } from '../shells/constants';
import { compileFilter } from '../shells/read-output';
import type { ShellService } from '../shells/shell-service';
import { defineTool } from './tool';
import { groupDigits } from '../../../shared/group-digits';

const parameters = z.strictObject({
  operation: z.enum(['read', 'write', 'kill', 'list']).describe('read, write, kill, or list'),
  shell_id: z.string().optional().describe('Handle returned by run_in_background (all but list)'),
  input: z.string().optional().describe('Text sent to stdin (write)'),
  newline: z.boolean().default(true).describe('Append a newline (Enter) to input (default true)'),
  cursor: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Return only output produced after this cursor (from an earlier result)'),
  filter: z
    .string()
    .optional()
    .describe('Regular expression; only matching lines are shown ("(?i)" prefix: ignore case)'),
  wait_ms: z
    .number()
    .int()
    .min(0)
    .max(MAX_WAIT_MS)
    .optional()
    .describe(`Wait up to this many ms for new output (max ${MAX_WAIT_MS})`),
});

export const shellSessionTool = defineTool({
  name: 'shell_session_tool',
  description:
    'Read output from, send input to, kill, or list the shells started with aider_shell_tool run_in_background. ' +
    'Reads are incremental: pass back the cursor of the previous result to get only what arrived since; omit it ' +
    'for everything retained. `status` and `exit_code` come from the process, so an empty read never means it is ' +
    'done. `filter` only changes what is shown: the cursor moves as if unfiltered (with wait_ms, the wait lasts ' +
    'until a matching line arrives). missed_characters means output was evicted before it was read (unrecoverable). ' +
    'write sends input and returns the reply in the same call (waits up to wait_ms, default 2000); writing to an ' +
    'exited shell is refused. kill sends SIGTERM to the whole process group, then SIGKILL after a grace period. ' +
    `Output over ${groupDigits(RESULT_CAP_CHARS)} characters keeps its head and tail around a marker.`,
  parameters,
  // Not read-only as a tool (plan mode does not bind it), but per call: read and list only read;
  // write sends input to a running shell or interpreter, which runs code like a shell command.
  flags: { readOnly: false, approval: 'shell' },
  classify: (args) =>
    args.operation === 'read' || args.operation === 'list'
      ? { readOnly: true, approval: 'none' }
      : args.operation === 'write'
        ? { readOnly: false, approval: 'shell' }
        : { readOnly: false, approval: 'none' },
  async run(ctx, args) {
    const shells = ctx.services.shells as ShellService | undefined;
    if (!shells)
      return errorPayload('service_unavailable', 'shells are not available in this host');
    const manager = shells.forSession(ctx.sessionId);
    if (args.operation === 'list') {
      return {
        kind: 'shell_session',
        operation: 'list',
        shells: manager.list(),
        cap: manager.limits.maxSessions,
      };
    }
    if (!args.shell_id)
      return errorPayload('invalid_args', `shell_id is required for operation "${args.operation}"`);
    let filter: RegExp | undefined;
    if (args.filter !== undefined) {
      const compiled = compileFilter(args.filter);
      if (!(compiled instanceof RegExp)) return compiled;
      filter = compiled;
    }
    switch (args.operation) {
      case 'read':
        return manager.read(args.shell_id, {
          cursor: args.cursor,
          filter,
          filterSource: args.filter,
          waitMs: args.wait_ms,
          signal: ctx.signal,
        });
      case 'write':
        return manager.write(args.shell_id, {
          input: args.input ?? '',
          newline: args.newline,
          cursor: args.cursor,
          waitMs: args.wait_ms,
          signal: ctx.signal,
        });
      case 'kill':
        return manager.kill(args.shell_id, { cursor: args.cursor });
    }
  },
});
