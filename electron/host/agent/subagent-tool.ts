import { z } from 'zod';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { ModelError } from '../models/model-error';
import { defineTool, type AnyTool } from '../tools/tool';
import { SUBAGENT_MAX_STEPS_SHARE, SUBAGENT_TOOL_NAME } from './constants';
import { newSubagentId } from './ids';
import type { AgentSpec, RunContext } from './run-context';

// spawn_agent: the root agent hands a self-contained task to a sub-agent with a narrowed tool set.
// The sub-agent has its own context (its task, then its own turns, tagged with its agent_id in the
// shared log), none of the root-only tools (binding), and reports back its final message.

export interface SubagentOutcome {
  text: string;
  steps: number;
  reason: 'finished' | 'step_limit';
}

const parameters = z.strictObject({
  task: z
    .string()
    .trim()
    .min(1, 'the task is empty')
    .max(20_000)
    .describe(
      'The complete, self-contained task: the sub-agent sees nothing else of this conversation',
    ),
  description: z
    .string()
    .trim()
    .max(80)
    .optional()
    .describe('A few words shown to the user, e.g. "Find the config loader"'),
  tools: z
    .array(z.string())
    .optional()
    .describe(
      'Names of the tools it may use (a subset of yours); omit for all of yours that sub-agents may hold',
    ),
});

export function createSubagentTool(
  run: RunContext,
  parent: { root: string; held: () => readonly string[] },
  runAgent: (spec: AgentSpec) => Promise<SubagentOutcome>,
): AnyTool {
  return defineTool({
    name: SUBAGENT_TOOL_NAME,
    description:
      'Start a sub-agent for a self-contained task (searching many files, investigating a question, a well-defined change) ' +
      'with a narrowed tool set. It works with its own context and returns its final report as the result. It cannot ' +
      'ask the user questions, update the todo list or start sub-agents of its own.',
    parameters,
    flags: { readOnly: false, rootOnly: true, approval: 'none' },
    async run(ctx, args): Promise<ToolPayload> {
      const held = parent.held().filter((n) => n !== SUBAGENT_TOOL_NAME);
      if (args.tools) {
        const unknown = args.tools.filter((n) => !held.includes(n));
        if (unknown.length)
          return errorPayload(
            'invalid_args',
            `tools: not among your tools: ${unknown.join(', ')}. Yours: ${held.join(', ')}`,
          );
      }
      const spec: AgentSpec = {
        id: newSubagentId(),
        task: args.task,
        allowedTools: args.tools ?? held,
        maxSteps: Math.max(1, Math.floor(run.config.agent.max_steps * SUBAGENT_MAX_STEPS_SHARE)),
        fixedRoot: parent.root,
      };
      const label = args.description || args.task.split('\n')[0]!.slice(0, 80);
      await ctx.emit({ type: 'subagent', agent_id: spec.id, task: args.task, state: 'started' });
      try {
        const outcome = await runAgent(spec);
        await ctx.emit({
          type: 'subagent',
          agent_id: spec.id,
          task: label,
          state: 'finished',
          result: outcome.text,
        });
        return {
          kind: 'subagent_result',
          agent_id: spec.id,
          status: outcome.reason,
          steps: outcome.steps,
          result: outcome.text || '(the sub-agent ended without a report)',
        };
      } catch (err) {
        if (!(err instanceof ModelError) || err.code === 'aborted') throw err;
        await ctx.emit({
          type: 'subagent',
          agent_id: spec.id,
          task: label,
          state: 'failed',
          result: err.message,
        });
        return errorPayload('subagent_failed', `The sub-agent failed: ${err.message}`, {
          agent_id: spec.id,
        });
      }
    },
  }) as AnyTool;
}
