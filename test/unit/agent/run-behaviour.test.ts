import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentService } from '../../../electron/host/agent/agent-service';
import { parseConfig } from '../../../electron/host/config/load-config';
import type { ModelSettings } from '../../../electron/host/models/model-settings';
import { ModelError } from '../../../electron/host/models/model-error';
import type {
  ModelProvider,
  ModelRequest,
  ModelToolCall,
  ModelTurn,
} from '../../../electron/host/models/types';
import { SessionManager } from '../../../electron/host/sessions/session-manager';
import type { Session } from '../../../electron/host/sessions/session';
import { defineTool, type AnyTool } from '../../../electron/host/tools/tool';
import type { SessionEvent } from '../../../shared/protocol/events';
import { stubTool } from '../../helpers/stub-tool';
import { tempDir } from '../../helpers/temp';

// The loop with an in-process scripted model and purpose-built tools: what dispatch runs together,
// what happens when a tool throws, when the model calls what does not exist, and the step limit.

type Step =
  | { text?: string; calls?: Omit<ModelToolCall, 'id'>[] }
  | ((req: ModelRequest) => Promise<ModelTurn>);

class Scripted implements ModelProvider {
  readonly provider = 'anthropic' as const;
  readonly model = 'claude-test';
  readonly contextWindow = 200_000;
  readonly requests: ModelRequest[] = [];
  private n = 0;
  constructor(private readonly steps: Step[]) {}
  async complete(req: ModelRequest, signal: AbortSignal): Promise<ModelTurn> {
    this.requests.push(req);
    const step = this.steps.shift() ?? { text: 'done' };
    if (typeof step === 'function') return step(req);
    if (signal.aborted) throw new ModelError('aborted', 'stopped');
    const toolCalls = (step.calls ?? []).map((c) => ({ ...c, id: `c${this.n++}` }));
    return {
      text: step.text ?? '',
      toolCalls,
      stopReason: toolCalls.length ? 'tool_use' : 'end_turn',
      usage: { inputTokens: 1, outputTokens: 1 },
    };
  }
}

let dir: ReturnType<typeof tempDir>;
let sessions: SessionManager;
let agent: AgentService | undefined;
beforeEach(() => {
  dir = tempDir();
  sessions = new SessionManager(`${dir.dir}/sessions`);
});
afterEach(async () => {
  await agent?.dispose();
  await sessions.dispose();
  dir.cleanup();
});

function start(model: Scripted, tools: AnyTool[], raw: object = {}): AgentService {
  const config = parseConfig({ permission_mode: 'auto', ...raw });
  const models = {
    select: async () => ({ ok: true as const, provider: model, reason: 'test' }),
  } as unknown as ModelSettings;
  agent = new AgentService({
    sessions,
    config,
    models,
    toolsForRun: () => ({ candidates: async () => tools }),
    scratchDir: `${dir.dir}/scratch`,
    rootLimits: {
      appHome: '/nonexistent-mewbo-home',
      installRoot: null,
      userHome: '/nonexistent-home',
    },
  });
  return agent;
}

async function runTo(
  a: AgentService,
  text = 'go',
): Promise<{ session: Session; events: readonly SessionEvent[] }> {
  const session = await sessions.create({ root: dir.dir });
  await a.send(session, text, { capabilities: [] });
  await a.idle(session.id);
  return { session, events: session.events() };
}

const results = (events: readonly SessionEvent[]) =>
  events.filter(
    (e): e is Extract<SessionEvent, { type: 'tool_result' }> => e.type === 'tool_result',
  );

describe('dispatch', () => {
  it('runs the read-only calls of a step together, and a write call only when nothing else runs', async () => {
    const log: string[] = [];
    let active = 0;
    let release!: () => void;
    const bothStarted = new Promise<void>((r) => (release = r));
    let readers = 0;
    const reader = defineTool({
      name: 'peek',
      description: 'read-only',
      parameters: z.object({ n: z.number() }),
      flags: { readOnly: true },
      async run(_ctx, { n }) {
        active++;
        log.push(`peek${n} start`);
        if (++readers === 2) release();
        await bothStarted; // resolves only if both reads are in flight at once
        active--;
        log.push(`peek${n} end`);
        return { kind: 'ok' };
      },
    }) as AnyTool;
    const writer = defineTool({
      name: 'poke',
      description: 'writes',
      parameters: z.object({ n: z.number() }),
      flags: { readOnly: false },
      async run(_ctx, { n }) {
        log.push(`poke${n} with ${active} others running`);
        await new Promise((r) => setImmediate(r));
        return { kind: 'ok' };
      },
    }) as AnyTool;
    const model = new Scripted([
      {
        calls: [
          { name: 'peek', args: { n: 1 } },
          { name: 'peek', args: { n: 2 } },
          { name: 'poke', args: { n: 3 } },
          { name: 'poke', args: { n: 4 } },
        ],
      },
    ]);
    const { events } = await runTo(start(model, [reader, writer]));
    expect(results(events)).toHaveLength(4);
    expect(log.slice(0, 2).sort()).toEqual(['peek1 start', 'peek2 start']);
    expect(log.slice(4)).toEqual(['poke3 with 0 others running', 'poke4 with 0 others running']);
  });

  it('a tool that throws becomes an error result and the run goes on', async () => {
    const boom = defineTool({
      name: 'boom',
      description: 'throws',
      parameters: z.object({}),
      flags: { readOnly: true },
      run: async () => {
        throw new Error('kaput');
      },
    }) as AnyTool;
    const model = new Scripted([{ calls: [{ name: 'boom', args: {} }] }, { text: 'recovered' }]);
    const { events } = await runTo(start(model, [boom]));
    expect(results(events)[0]!.payload).toMatchObject({
      kind: 'error',
      code: 'tool_failed',
      message: 'boom failed: kaput',
    });
    expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'idle', reason: 'finished' });
  });

  it('an unknown tool, arguments that are not JSON, and arguments that fail the schema are error results naming the problem', async () => {
    const echo = defineTool({
      name: 'echo',
      description: 'echo',
      parameters: z.strictObject({ text: z.string() }),
      flags: { readOnly: true },
      run: async (_c, a) => ({ kind: 'echo', text: a.text }),
    }) as AnyTool;
    const model = new Scripted([
      {
        calls: [
          { name: 'nope', args: {} },
          { name: 'echo', args: undefined, argsError: 'the arguments are not valid JSON' },
          { name: 'echo', args: { text: 5 } },
        ],
      },
      { text: 'ok' },
    ]);
    const { events } = await runTo(start(model, [echo]));
    const [unknown, notJson, badArgs] = results(events).map((r) => r.payload);
    expect(unknown).toMatchObject({ code: 'unknown_tool' });
    expect(String(unknown!.message)).toContain('echo');
    expect(notJson).toMatchObject({ code: 'invalid_args' });
    expect(badArgs).toMatchObject({ code: 'invalid_args' });
    expect(String(badArgs!.message)).toContain('text');
  });
});

describe('sessions bound to no project', () => {
  it('work in a scratch directory of their own, and the model is told so', async () => {
    const seen: string[] = [];
    const where = defineTool({
      name: 'where',
      description: 'root',
      parameters: z.object({}),
      flags: { readOnly: true },
      run: async (ctx) => (seen.push(ctx.root), { kind: 'ok' }),
    }) as AnyTool;
    const model = new Scripted([{ calls: [{ name: 'where', args: {} }] }, { text: 'ok' }]);
    const a = start(model, [where]);
    const session = await sessions.create({});
    await a.send(session, 'where am I', { capabilities: [] });
    await a.idle(session.id);
    expect(seen[0]).toBe(`${dir.dir}/scratch/${session.id}`);
    expect(model.requests[0]!.system).toContain('scratch directory');
  });
});

describe('run limits and stopping', () => {
  const tick = stubTool('tick');

  it('stops at agent.max_steps with an error that says so', async () => {
    const model = new Scripted(
      Array.from({ length: 10 }, () => ({ calls: [{ name: 'tick', args: {} }] })),
    );
    const { events } = await runTo(start(model, [tick], { agent: { max_steps: 3 } }));
    expect(model.requests).toHaveLength(3);
    expect(events.filter((e) => e.type === 'error').at(-1)).toMatchObject({ code: 'step_limit' });
    expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'idle' });
  });

  it('a stop during a tool call ends the run as stopped, with a result for the call', async () => {
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const slow = defineTool({
      name: 'slow',
      description: 'waits for its signal',
      parameters: z.object({}),
      flags: { readOnly: true },
      run: (ctx) => {
        entered();
        return new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
        );
      },
    }) as AnyTool;
    const model = new Scripted([{ calls: [{ name: 'slow', args: {} }] }]);
    const a = start(model, [slow]);
    const session = await sessions.create({ root: dir.dir });
    await a.send(session, 'go', { capabilities: [] });
    await inside;
    await a.stop(session);
    const events = session.events();
    expect(results(events)[0]!.payload).toMatchObject({ code: 'stopped' });
    expect(events.at(-1)).toMatchObject({ type: 'run_state', state: 'stopped' });
    expect(a.isRunning(session.id)).toBe(false);
  });

  it('a message sent while the model works is picked up by the same run', async () => {
    const holder: { session?: Session } = {};
    const model = new Scripted([
      async () => {
        await agent!.send(holder.session!, 'and one more thing', { capabilities: [] });
        return {
          text: 'first answer',
          toolCalls: [],
          stopReason: 'end_turn',
          usage: { inputTokens: 1, outputTokens: 1 },
        };
      },
      { text: 'second answer' },
    ]);
    const a = start(model, []);
    const session = (holder.session = await sessions.create({ root: dir.dir }));
    await a.send(session, 'first', { capabilities: [] });
    await a.idle(session.id);
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(model.requests[1]!.messages)).toContain('and one more thing');
    expect(
      session.events().filter((e) => e.type === 'run_state' && e.state === 'running'),
    ).toHaveLength(1);
  });
});
