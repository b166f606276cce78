import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildContext, latestCompaction } from '../../../electron/host/agent/context-builder';
import { LoopState } from '../../../electron/host/agent/loop-state';
import { currentMode } from '../../../electron/host/agent/session-state';
import { messageChars } from '../../../electron/host/agent/token-estimate';
import { fetchedFromHistory } from '../../../electron/host/tool-search/history';
import type { PermissionMode } from '../../../electron/host/config/schema';
import type { SessionEvent } from '../../../shared/protocol/events';
import { visibleEvents } from '../../../shared/protocol/rewinds';
import { ArrayLog, rewind, rewindActions } from '../../helpers/session-log';
import { imageRefs, limitImages } from '../../../electron/host/agent/image-budget';
import {
  ANTHROPIC_IMAGE_LIMITS,
  type ImageLimits,
} from '../../../electron/host/models/image-limits';
import { makePng } from '../../helpers/png';

// The loop's incremental state (each agent's context, its size for the token estimate, the
// compaction it starts from, the permission mode) must always equal a full rebuild from the log.
// Random runs of a session: user messages (some with images, some expanded as commands later),
// model turns of the root and a sub-agent (text, reasoning, paused, tool calls, results in any
// order, results for unknown calls), mode switches, questions answered in place or late (even a
// late answer logged before its question), compactions of either agent, rewinds of the
// conversation or the files and their undos, hooks, diagnostics, instructions, project switches;
// the state is read at random points, so several events (a rewind among them) may arrive
// between two reads. The request built from a context (its oldest images left out past the
// caps and the budget) must equal the same computation over the rebuilt messages.

/** Real PNGs: small, mid-size, and one over the 2000 px a request with many images allows. */
const PNGS = [
  [1, 1],
  [600, 400],
  [2500, 8],
].map(([w, h]) => ({ w: w!, h: h!, data: makePng(w!, h!).toString('base64') }));
/** Limits that bind within a short run: few images, the many-image size rule, a small budget. */
const LIMITS: [ImageLimits, number][] = [
  [ANTHROPIC_IMAGE_LIMITS, 1e9],
  [{ ...ANTHROPIC_IMAGE_LIMITS, maxImages: 4, many: { over: 2, maxSide: 2000 } }, 1e9],
  [ANTHROPIC_IMAGE_LIMITS, 700],
];

const AGENTS = ['root', 'sub_1'] as const;
const TASK = 'THE SUB-AGENT TASK';
const MODES: PermissionMode[] = ['ask', 'accept-edits', 'auto', 'plan'];

const PAYLOADS = {
  file: (id: string) => ({ kind: 'file', content: `of ${id}` }),
  error: () => ({ kind: 'error', code: 'x', message: 'failed' }),
  // An image read_file read travels beside the result's text.
  image: (id: string, n = 0) => {
    const png = PNGS[n % PNGS.length]!;
    return {
      kind: 'image',
      path: `${id}.png`,
      media_type: 'image/png',
      size_bytes: 8,
      width: png.w,
      height: png.h,
      message: 'an image',
      image: { media_type: 'image/png', data: png.data },
    };
  },
};

const pick = <T>(xs: readonly T[], n: number): T | undefined =>
  xs.length ? xs[n % xs.length] : undefined;

const action = fc.oneof(
  fc.record({
    k: fc.constant('user' as const),
    text: fc.string(),
    images: fc.array(fc.nat(PNGS.length - 1), { maxLength: 3 }),
  }),
  fc.record({
    k: fc.constant('turn' as const),
    agent: fc.constantFrom(...AGENTS),
    text: fc.option(fc.string(), { nil: undefined }),
    calls: fc.nat(3),
    paused: fc.boolean(),
    reasoning: fc.boolean(),
  }),
  fc.record({
    k: fc.constant('result' as const),
    n: fc.nat(),
    kind: fc.constantFrom('file' as const, 'error' as const, 'image' as const),
    stray: fc.boolean(),
  }),
  // A call logged on its own: it joins the open turn while that has no result yet.
  fc.record({ k: fc.constant('call' as const), agent: fc.constantFrom(...AGENTS) }),
  fc.record({ k: fc.constant('mode' as const), n: fc.nat() }),
  fc.record({
    k: fc.constant('search' as const),
    agent: fc.constantFrom(...AGENTS),
    names: fc.subarray(['mcp__a__x', 'mcp__a__y', 'mcp__b__z']),
  }),
  fc.record({ k: fc.constant('question' as const), n: fc.nat(), reuse: fc.boolean() }),
  fc.record({
    k: fc.constant('answer' as const),
    n: fc.nat(),
    late: fc.boolean(),
    ahead: fc.boolean(),
  }),
  fc.record({ k: fc.constant('expand' as const), n: fc.nat() }),
  fc.record({ k: fc.constant('compact' as const), agent: fc.constantFrom(...AGENTS), n: fc.nat() }),
  ...rewindActions,
  fc.record({
    k: fc.constant('note' as const),
    agent: fc.constantFrom(...AGENTS),
    what: fc.constantFrom('instructions', 'hook', 'diagnostics', 'switch', 'noise'),
    file: fc.constantFrom('sub/AGENTS.md', 'lib/CLAUDE.md'),
  }),
  fc.constant({ k: 'check' as const }),
);
type Action = typeof action extends fc.Arbitrary<infer A> ? A : never;

/** Plays actions into a log, reading the state at each `check` and at the end. */
function play(actions: Action[], check: (log: ArrayLog, state: LoopState) => void): void {
  const log = new ArrayLog();
  const state = new LoopState(log, { rendered: new WeakMap() });
  let ids = 0;
  const open: { id: string; agent: string }[] = [];
  const users: SessionEvent[] = [];
  const questions: string[] = [];
  const answeredAhead: string[] = [];
  const rewinds: number[] = [];
  /** A read_file call, open until a result answers it. */
  const logCall = (agent: string) => {
    const id = `c${ids++}`;
    open.push({ id, agent });
    log.append({
      type: 'tool_call',
      call_id: id,
      agent_id: agent,
      name: 'read_file',
      args: { path: id },
    });
  };
  const ensureContexts = () =>
    AGENTS.forEach((a) => state.context(a, a === 'root' ? undefined : TASK));
  ensureContexts();
  for (const a of actions) {
    switch (a.k) {
      case 'user': {
        const e = log.append({
          type: 'user_message',
          text: a.text,
          message_id: `m${ids++}`,
          ...(a.images.length
            ? {
                images: a.images.map((n) => ({
                  media_type: 'image/png' as const,
                  data: PNGS[n]!.data,
                })),
              }
            : {}),
        });
        users.push(e);
        break;
      }
      case 'turn': {
        log.append({
          type: 'usage',
          agent_id: a.agent,
          model: 'm',
          input_tokens: 1,
          output_tokens: 1,
        });
        if (a.text !== undefined || a.paused)
          log.append({
            type: 'assistant_message',
            message_id: `a${ids++}`,
            agent_id: a.agent,
            text: a.text ?? '',
            ...(a.reasoning
              ? {
                  reasoning: {
                    provider: 'anthropic',
                    items: [{ type: 'thinking', thinking: 'x' }],
                  },
                }
              : {}),
            ...(a.paused ? { stop_reason: 'pause_turn' } : {}),
          });
        for (let i = 0; i < a.calls; i++) logCall(a.agent);
        break;
      }
      case 'result': {
        const call = a.stray ? { id: `c${ids++}`, agent: 'root' } : pick(open, a.n);
        if (!call) break;
        if (!a.stray) open.splice(open.indexOf(call), 1);
        log.append({
          type: 'tool_result',
          call_id: call.id,
          agent_id: call.agent,
          name: 'read_file',
          payload: PAYLOADS[a.kind](call.id, a.n),
        });
        break;
      }
      case 'call':
        logCall(a.agent);
        break;
      case 'search': {
        // A tool_search result names the deferred schemas it loaded (the call may be the open turn's).
        const call = open.find((c) => c.agent === a.agent);
        if (call) open.splice(open.indexOf(call), 1);
        log.append({
          type: 'tool_result',
          call_id: call?.id ?? `c${ids++}`,
          agent_id: a.agent,
          name: 'tool_search',
          payload: { kind: 'tool_search', tools: a.names.map((name) => ({ name })) },
        });
        break;
      }
      case 'mode':
        log.append({ type: 'mode_change', mode: pick(MODES, a.n)! });
        break;
      case 'question': {
        const id = (a.reuse && pick(answeredAhead, a.n)) || `q${ids++}`;
        questions.push(id);
        log.append({
          type: 'question',
          question_id: id,
          call_id: `c${ids++}`,
          questions: [
            {
              header: `H${id}`,
              question: 'which?',
              options: [{ label: 'a', description: '' }],
              multi_select: false,
            },
          ],
        });
        break;
      }
      case 'answer': {
        const id = a.ahead ? `q${ids++}` : pick(questions, a.n);
        if (!id) break;
        if (a.ahead) answeredAhead.push(id);
        log.append({
          type: 'question_answer',
          question_id: id,
          answer: { answers: [{ selected: [0] }] },
          delivery: a.late ? 'late' : 'in_place',
        });
        break;
      }
      case 'expand': {
        const u = pick(users, a.n);
        if (u?.type !== 'user_message') break;
        log.append({
          type: 'command_expanded',
          message_id: u.message_id,
          name: 'cmd',
          kind: 'command',
          scope: 'user',
          text: `expanded ${u.text}`,
        });
        break;
      }
      case 'compact':
        if (!log.length) break;
        log.append({
          type: 'compaction',
          summary: `summary ${ids++}`,
          upto_seq: a.n % log.length,
          agent_id: a.agent,
        });
        break;
      case 'rewind': {
        const to = pick(users, a.n);
        if (!to) break;
        const e = log.append(rewind(to.seq, a.mode));
        rewinds.push(e.seq);
        break;
      }
      case 'undo': {
        const of = pick(rewinds, a.n);
        if (of === undefined) break;
        log.append(rewind(0, 'both', of));
        break;
      }
      case 'note':
        if (a.what === 'instructions')
          log.append({
            type: 'instructions_loaded',
            file: a.file,
            text: 'rules',
            agent_id: a.agent,
          });
        else if (a.what === 'hook')
          log.append({
            type: 'hook_run',
            hook_event: 'PostToolUse',
            command: 'check.sh',
            scope: 'user',
            agent_id: a.agent,
            outcome: 'ok',
            exit_code: 0,
            duration_ms: 1,
            stdout: '',
            stderr: '',
            to_model: 'hook says',
          });
        else if (a.what === 'diagnostics')
          log.append({ type: 'diagnostics', file: 'a.ts', text: 'error TS1', agent_id: a.agent });
        else if (a.what === 'switch')
          log.append({ type: 'project_switch', from: 'a', to: 'b', root: '/b' });
        else log.append({ type: 'run_state', state: 'running' });
        break;
      case 'check':
        check(log, state);
        break;
    }
  }
  check(log, state);
}

/** The state read now equals everything rebuilt from the whole log. */
function expectRebuilt(log: ArrayLog, state: LoopState, handedOut: HandedOut[] = []): void {
  for (const agent of AGENTS) {
    const opts = agent === 'root' ? {} : { task: TASK };
    const rebuilt = buildContext(log.all, agent, opts);
    const ctx = state.context(agent, opts.task);
    const messages = ctx.messages();
    expect(messages).toEqual(rebuilt);
    expect(ctx.chars()).toBe(rebuilt.reduce((n, m) => n + messageChars(m), 0));
    expect(ctx.compaction()).toEqual(latestCompaction(visibleEvents(log.all), agent));
    handedOut.push({ messages, copy: structuredClone(messages) });
    for (const [limits, room] of LIMITS) {
      const built = ctx.request(limits, room);
      const full = limitImages(rebuilt, limits, room);
      expect(built).toEqual(full);
      // Under the cap (unless the newest message alone is over it), the newest message intact.
      const refs = imageRefs(built.messages);
      const last = imageRefs(rebuilt).at(-1);
      if (last) {
        expect(built.messages[last.at]).toEqual(rebuilt[last.at]);
        const newest = imageRefs([rebuilt[last.at]!]).length;
        expect(refs.length).toBeLessThanOrEqual(Math.max(limits.maxImages, newest));
      }
      expect(refs.length + built.omitted).toBe(imageRefs(rebuilt).length);
      handedOut.push({ messages: built.messages, copy: structuredClone(built.messages) });
    }
  }
  expect(state.permissionMode('ask')).toBe(currentMode(log.all, 'ask'));
  for (const agent of AGENTS) {
    expect(state.fetchedTools(agent)).toEqual(fetchedFromHistory(log.all, agent));
    expect(state.instructionFiles(agent)).toEqual(
      new Set(
        log.all.flatMap((e) =>
          e.type === 'instructions_loaded' && e.agent_id === agent ? [e.file] : [],
        ),
      ),
    );
  }
  // A context handed to a provider is never changed by the events folded after it.
  for (const h of handedOut) expect(h.messages).toEqual(h.copy);
}
interface HandedOut {
  messages: unknown[];
  copy: unknown[];
}

describe('LoopState', () => {
  it('equals a full rebuild from the log after any sequence of steps', () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 80, size: 'max' }), (actions) => {
        const handedOut: HandedOut[] = [];
        play(actions, (log, state) => expectRebuilt(log, state, handedOut));
      }),
      { numRuns: 400 },
    );
  });

  it('folds a step without rebuilding, and rebuilds at a rewind or its own compaction', () => {
    const log = new ArrayLog();
    const state = new LoopState(log);
    const root = state.context('root');
    log.append({ type: 'user_message', text: 'go', message_id: 'm1' });
    for (let i = 0; i < 50; i++) {
      log.append({
        type: 'usage',
        agent_id: 'root',
        model: 'm',
        input_tokens: 1,
        output_tokens: 1,
      });
      log.append({
        type: 'tool_call',
        call_id: `c${i}`,
        agent_id: 'root',
        name: 'read_file',
        args: {},
      });
      log.append({
        type: 'tool_result',
        call_id: `c${i}`,
        agent_id: 'root',
        name: 'read_file',
        payload: { kind: 'file', content: 'x' },
      });
      root.messages();
    }
    expect(root.rebuilds).toBe(1);
    log.append({ type: 'compaction', summary: 's', upto_seq: 10, agent_id: 'sub_1' });
    root.messages();
    expect(root.rebuilds).toBe(1);
    log.append({ type: 'compaction', summary: 's', upto_seq: 10, agent_id: 'root' });
    root.messages();
    expect(root.rebuilds).toBe(2);
    log.append(rewind(0, 'both'));
    expect(root.messages()).toEqual(buildContext(log.all, 'root'));
    expect(root.rebuilds).toBe(3);
  });
});
