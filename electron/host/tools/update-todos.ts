import { z } from 'zod';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { TODOS_MAX_ITEMS } from '../agent/constants';
import { defineTool } from './tool';

// update_todos (seed): the whole list on every call, exactly one item in progress while work
// remains, published as one todos event that drives the todo dock. It does not end the turn.
// Root agent and act mode only.

const TODO_LABEL_MAX_CHARS = 200;

const parameters = z.strictObject({
  todos: z
    .array(
      z.strictObject({
        label: z.string().trim().min(1, 'a label is required').max(TODO_LABEL_MAX_CHARS),
        status: z.enum(['pending', 'in_progress', 'completed']),
      }),
    )
    .max(TODOS_MAX_ITEMS)
    .describe(
      'The full ordered list, every call (never a change to it); exactly one item in_progress while work remains',
    ),
});

export const updateTodosTool = defineTool({
  name: 'update_todos',
  description:
    'Record your current task list so the user can watch progress in the todo dock. Send the WHOLE ordered list on ' +
    'every call; the newest call replaces what is shown (an item left out disappears). Exactly one item is ' +
    'in_progress while work remains; when everything is done, mark all completed. The call does not end your turn: ' +
    'continue working after it.',
  parameters,
  flags: { readOnly: true, rootOnly: true, actModeOnly: true, approval: 'none' },
  async run(ctx, args): Promise<ToolPayload> {
    const items = args.todos;
    const active = items.filter((t) => t.status === 'in_progress');
    const open = items.filter((t) => t.status !== 'completed');
    if (active.length > 1) {
      return errorPayload(
        'invalid_todos',
        `Exactly one item is in progress at a time; ${active.length} are: ${active.map((t) => `"${t.label}"`).join(', ')}. Send the list again with one in_progress.`,
      );
    }
    if (active.length === 0 && open.length > 0) {
      return errorPayload(
        'invalid_todos',
        `Exactly one item is in progress while work remains; none is. Mark the item you are working on in_progress (or all completed when done).`,
      );
    }
    await ctx.emit({ type: 'todos', items, source: 'update_todos', agent_id: ctx.agentId });
    const done = items.filter((t) => t.status === 'completed').length;
    return {
      kind: 'todos',
      total: items.length,
      completed: done,
      in_progress: active[0]?.label ?? null,
      message: `Todo list updated (${done}/${items.length} completed). Continue with the work.`,
    };
  },
});
