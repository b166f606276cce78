import { platform, release, arch } from 'node:os';
import { basename } from 'node:path';
import { ModelError } from '../models/model-error';
import { estimateCost } from '../models/prices';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from '../models/image-limits';
import type { ModelProvider, ModelTurn, ModelUsage, StopReason } from '../models/types';
import { newMessageId } from '../sessions/session-runner';
import { chooseEditBackend } from '../tools/edit-backend';
import { toolInputSchema } from '../tool-search/tool-schema';
import type { AnyTool } from '../tools/tool';
import { bindTools } from './bind-tools';
import { compact, type CompactionOutcome } from './compaction';
import { COMPACT_AT_SHARE } from './constants';
import { dispatchCalls, type StepAgent } from './dispatch';
import { createPlanTool } from './plan-tool';
import { projectInstructions } from '../projects/instructions';
import { policyRootOf } from '../remote/policy-root';
import type { AgentSpec, RunContext } from './run-context';
import { settleDangling } from './settle-dangling';
import { stopHooksBlock } from '../hooks/session-hooks';
import { createSkillTool } from '../skills/skill-tool';
import { userInstructions } from '../instructions/user-instructions';
import { abortReason } from './stop-reason';
import { createSubagentTool, type SubagentOutcome } from './subagent-tool';
import { buildSystemPrompt } from './system-prompt';
import { inputBudget, outputBudget, promptTokens } from './token-estimate';

// One agent's loop: bind tools, rebuild the context from the log, call the model (streaming its
// text as transient deltas), record the turn, run its tool calls, repeat, until the model stops,
// the user stops it, or the step limit. Root and sub-agents run the same loop.

const PLATFORM = `${platform()} ${release()} ${arch()}, Node ${process.versions.node}`;

async function stepTools(
  run: RunContext,
  spec: AgentSpec,
  root: string,
  runAgent: (s: AgentSpec) => Promise<SubagentOutcome>,
  /** Where the project's skills are read (policyRootOf): `root`, or a remote project's copy. */
  policyRoot: string = root,
) {
  const input = { session: run.session, agent: spec, root, headless: run.headless };
  const own: AnyTool[] = [];
  const held: string[] = [];
  if (spec.id === 'root') {
    own.push(createPlanTool(run), createSubagentTool(run, { root, held: () => held }, runAgent));
  }
  const skills = (await run.servicesFor(spec.id).skills?.load(policyRoot))?.skills ?? [];
  if (skills.length) own.push(createSkillTool(skills));
  const candidates = [...(await run.tools.candidates(input)), ...own];
  const result = bindTools({
    tools: candidates,
    agent: spec.id === 'root' ? 'root' : 'sub',
    mode: run.state.permissionMode(run.config.permission_mode),
    capabilities: run.capabilities,
    headless: run.headless,
    workspaceMode: run.config.agent.workspace_mode,
    editBackend: chooseEditBackend(run.config.agent, run.provider.model),
    allowedTools: spec.allowedTools,
    deferral: run.tools.defer
      ? (granted) =>
          run.tools.defer!(granted, {
            ...input,
            contextWindow: run.provider.contextWindow,
            fetchedNames: run.state.fetchedTools(spec.id),
          })
      : undefined,
  });
  // What the root holds includes what it could fetch: a sub-agent reaches those deferred tools
  // through its own tool_search (seed), which needs them granted.
  held.push(...result.bound.map((t) => t.name), ...result.deferredNames);
  return { ...result, skills };
}

export async function runAgent(run: RunContext, spec: AgentSpec): Promise<SubagentOutcome> {
  // A finished sub-agent's context is not read again.
  const sub = (s: AgentSpec) => runAgent(run, s).finally(() => run.state.forget(s.id));
  let lastText = '';
  let steps = 0;
  let stopBlocks = 0;
  if (spec.id === 'root') {
    const { root } = run.currentRoot();
    const { bound } = await stepTools(run, spec, root, sub);
    await settleDangling(run, { spec, root, bound });
  }
  while (steps < spec.maxSteps) {
    const stop = abortReason(run.signal);
    if (stop) throw stop;
    const where = spec.fixedRoot ? { root: spec.fixedRoot, hasProject: true } : run.currentRoot();
    const policy = where.hasProject
      ? await policyRootOf(run.servicesFor(spec.id).remote, run.session.id, where.root)
      : where.root;
    const { bound, deferredNames, skills } = await stepTools(run, spec, where.root, sub, policy);
    const mode = run.state.permissionMode(run.config.permission_mode);
    const instructions = where.hasProject
      ? await projectInstructions(policy).catch(() => null)
      : null;
    const system = buildSystemPrompt({
      agent: spec.id === 'root' ? 'root' : 'sub',
      root: where.root,
      hasProject: where.hasProject,
      mode,
      headless: run.headless,
      toolNames: bound.map((t) => t.name),
      deferredCount: deferredNames.length,
      skills: skills.map((k) => ({ name: k.name, description: k.description })),
      userInstructions: await userInstructions(run.servicesFor(spec.id).userInstructionFiles ?? []),
      instructions: instructions
        ? { file: basename(instructions.file), text: instructions.text }
        : null,
      date: new Date(),
      platform: PLATFORM,
    });
    const tools = bound.map((t) => {
      let parameters = run.memo.schemas.get(t);
      if (!parameters) run.memo.schemas.set(t, (parameters = toolInputSchema(t)));
      return { name: t.name, description: t.description, parameters };
    });
    const mark = run.session.length;
    const turn = await callModel(run, spec, system, tools);
    steps++;
    // The turn's events are issued together: appended in this order, durable with one fsync.
    const recorded = [run.append(usageEvent(run, spec.id, turn.usage))];
    if (turn.text || turn.thinking || turn.reasoning || notable(turn.stopReason)) {
      recorded.push(
        run.append({
          type: 'assistant_message',
          message_id: turn.messageId,
          agent_id: spec.id,
          text: turn.text,
          ...(turn.thinking ? { thinking: turn.thinking } : {}),
          ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
          ...(notable(turn.stopReason) ? { stop_reason: turn.stopReason } : {}),
        }),
      );
      if (turn.text) lastText = turn.text;
    }
    for (const c of turn.toolCalls)
      recorded.push(
        run.append({
          type: 'tool_call',
          call_id: c.id,
          agent_id: spec.id,
          name: c.name,
          args: c.args ?? {},
        }),
      );
    const notice = STOP_NOTICES[turn.stopReason];
    if (notice)
      recorded.push(run.append({ type: 'error', code: turn.stopReason, message: notice }));
    await Promise.all(recorded);
    // A paused turn (a long server-side step) is sent back as it is and the model carries on.
    if (turn.stopReason === 'pause_turn' && !turn.toolCalls.length) continue;
    if (!turn.toolCalls.length) {
      if (
        spec.id === 'root' &&
        (await stopHooksBlock({
          rules: run.servicesFor(spec.id).rules,
          remote: run.servicesFor(spec.id).remote,
          session: run.session,
          root: where.root,
          signal: run.signal,
          blocksSoFar: stopBlocks,
        }))
      ) {
        stopBlocks++;
        continue;
      }
      // The files as the turn leaves them, recorded before the run says it is done.
      if (spec.id === 'root') await run.afterWrites();
      if (spec.id !== 'root' || run.tryClose(mark))
        return { text: lastText, steps, reason: 'finished' };
      continue;
    }
    const agent: StepAgent = { spec, root: where.root, bound };
    await dispatchCalls(run, agent, turn.toolCalls);
  }
  return { text: lastText, steps, reason: 'step_limit' };
}

const notable = (r: StopReason) => r === 'max_tokens' || r === 'refusal' || r === 'pause_turn';

/** What the user is told when a turn ended short of a normal end. */
const STOP_NOTICES: Partial<Record<StopReason, string>> = {
  max_tokens:
    'The reply reached the output limit (max_tokens) and was cut off; send a message to continue.',
  refusal: 'The model declined to continue this request (stop reason: refusal).',
};

/** One model call's usage, with what the context meter and the cost estimate need. */
function usageEvent(
  run: Pick<RunContext, 'provider' | 'config'>,
  agentId: string,
  usage: ModelUsage,
) {
  const { provider } = run;
  const cost = estimateCost(provider.model, usage, run.config.prices);
  return {
    type: 'usage' as const,
    agent_id: agentId,
    model: provider.model,
    provider: provider.provider,
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    ...(usage.cacheReadTokens !== undefined ? { cache_read_tokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens !== undefined ? { cache_write_tokens: usage.cacheWriteTokens } : {}),
    ...(usage.reasoningTokens !== undefined ? { reasoning_tokens: usage.reasoningTokens } : {}),
    context_window: provider.contextWindow,
    compact_at_tokens: Math.floor(inputBudget(provider.contextWindow) * COMPACT_AT_SHARE),
    ...(cost !== undefined ? { cost_usd: cost } : {}),
  };
}

/** Calls the model, compacting first when the context outgrows the window, and once more on overflow. */
async function callModel(
  run: RunContext,
  spec: AgentSpec,
  system: string,
  tools: { name: string; description: string; parameters: Record<string, unknown> }[],
): Promise<ModelTurn & { messageId: string }> {
  const { provider } = run;
  const messageId = newMessageId();
  // What has streamed of this turn: a stop keeps it (users never lose what was already said).
  let streamed = '';
  const onText = (text: string) => {
    streamed += text;
    run.session.emitTransient({
      type: 'assistant_delta',
      message_id: messageId,
      agent_id: spec.id,
      text,
    });
  };
  const stopped = async (err: unknown): Promise<unknown> => {
    if (abortReason(run.signal)?.why === 'stop' && streamed.trim())
      await run.append({
        type: 'assistant_message',
        message_id: messageId,
        agent_id: spec.id,
        text: streamed,
        stopped: true,
      });
    return translateAbort(run, err);
  };
  // Kept up to date with the log (a step folds only the events since the last one).
  const context = run.state.context(spec.id, spec.task);
  const budget = inputBudget(provider.contextWindow) * COMPACT_AT_SHARE;
  // Images first: the oldest are left out of the request (for a note each) to stay under the
  // provider's caps and inside the budget; only what is still over it is compacted.
  const build = () => {
    const text = promptTokens(system, tools, context.chars());
    const built = context.request(imageLimitsOf(provider), budget - text);
    // An image left out is read in full again when the model asks (the note tells it to).
    const reads = run.servicesFor(spec.id).readState;
    if (reads) for (const callId of built.omittedCalls) reads.forgetCall(callId);
    return { messages: built.messages, tokens: text + built.tokens };
  };
  let built = build();
  if (built.tokens > budget && (await compactNow(run, spec, false))) built = build();
  let { messages } = built;
  const request = () => ({
    system,
    messages,
    tools,
    maxTokens: outputBudget(provider.contextWindow),
  });
  try {
    return { ...(await provider.complete(request(), run.signal, { onText })), messageId };
  } catch (err) {
    if (!(err instanceof ModelError) || err.code !== 'context_overflow') throw await stopped(err);
    if (!(await compactNow(run, spec, true))) throw err;
    messages = build().messages;
    try {
      return { ...(await provider.complete(request(), run.signal, { onText })), messageId };
    } catch (again) {
      throw await stopped(again);
    }
  }
}

/** A model that takes no images is sent a line for each instead: no image is left out, none costs tokens. */
const NO_IMAGES: ImageLimits = { maxImages: Infinity, maxBase64Chars: Infinity, tokens: () => 0 };
function imageLimitsOf(provider: ModelProvider): ImageLimits {
  return provider.images === false ? NO_IMAGES : (provider.imageLimits ?? DEFAULT_IMAGE_LIMITS);
}

function translateAbort(run: RunContext, err: unknown): unknown {
  return err instanceof ModelError && err.code === 'aborted'
    ? (abortReason(run.signal) ?? err)
    : err;
}

async function compactNow(run: RunContext, spec: AgentSpec, force: boolean): Promise<boolean> {
  const done = await summarizeContext(run, spec, force).catch((err) => {
    throw translateAbort(run, err);
  });
  if (!done.ok) {
    if (done.why === 'failed' || force)
      await run.append({
        type: 'error',
        code: 'compaction_failed',
        message: `Could not compact the context: ${done.reason}`,
      });
    return false;
  }
  return true;
}

/** What a compaction needs of a run (`/compact` builds it when no run is live). */
export type CompactScope = Pick<
  RunContext,
  'session' | 'state' | 'provider' | 'signal' | 'config' | 'append' | 'servicesFor'
>;

/**
 * Summarizes the agent's context into a compaction event (after the summary call's usage), as the
 * loop does when the context outgrows the window; `force`: everything settled, the latest turn too.
 */
export async function summarizeContext(
  run: CompactScope,
  spec: Pick<AgentSpec, 'id' | 'task'>,
  force: boolean,
): Promise<CompactionOutcome> {
  const done = await compact({
    events: run.session.events(),
    previous: run.state.context(spec.id, spec.task).compaction(),
    agentId: spec.id,
    provider: run.provider,
    signal: run.signal,
    force,
  });
  if (!done.ok) return done;
  await run.append(usageEvent(run, `${spec.id}/compaction`, done.usage));
  await startContextAt(run, spec.id, done.summary, done.uptoSeq);
  return done;
}

/**
 * The agent's context starts over from `summary`, replacing everything up to `uptoSeq`; read_file
 * forgets what was read before (its contents are no longer in the context).
 */
export async function startContextAt(
  run: Pick<RunContext, 'append' | 'servicesFor'>,
  agentId: string,
  summary: string,
  uptoSeq: number,
): Promise<void> {
  await run.append({ type: 'compaction', summary, upto_seq: uptoSeq, agent_id: agentId });
  run.servicesFor(agentId).readState?.forgetReads();
}
