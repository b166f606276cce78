import type { SessionEvent, SessionEventOf } from '../../../shared/protocol/events';
import { ModelError } from '../models/model-error';
import type { ModelProvider, ModelUsage } from '../models/types';
import {
  CHARS_PER_TOKEN,
  COMPACT_KEEP_SHARE,
  SUMMARY_EVENT_MAX_CHARS,
  SUMMARY_MAX_TOKENS,
} from './constants';
import { renderToolResult } from './render-result';
import { inputBudget } from './token-estimate';

// The context budget: when an agent's context outgrows the model's window, its older turns are
// summarized by the model into a compaction event; the context is then rebuilt from the summary
// plus the turns after it. The log itself keeps everything (the UI, tool_search's discovery and
// a later compaction still read it).

const SUMMARIZER_SYSTEM =
  'You summarize the earlier part of a conversation between a user and a coding agent, so the agent can continue ' +
  "the work without it. Keep: the user's requests and preferences; decisions made; files read or changed (paths) and " +
  'what changed; commands run and their outcomes; errors met and how they were solved; open questions and the next ' +
  'steps. Be specific (names, paths, numbers). Write plain prose and lists, no preamble.';

/** Seqs where a new exchange starts and nothing of this agent is outstanding: safe cut points. */
export function cutPoints(
  events: readonly SessionEvent[],
  agentId: string,
  from: number,
): number[] {
  const points: number[] = [];
  const open = new Set<string>();
  for (let i = from; i < events.length; i++) {
    const e = events[i]!;
    if (e.type === 'tool_call' && e.agent_id === agentId) open.add(e.call_id);
    else if (e.type === 'tool_result' && e.agent_id === agentId) open.delete(e.call_id);
    else if (
      open.size === 0 &&
      ((e.type === 'usage' && e.agent_id === agentId) ||
        (agentId === 'root' && e.type === 'user_message'))
    ) {
      if (points[points.length - 1] !== e.seq) points.push(e.seq);
    }
  }
  return points;
}

function unresolvedCount(events: readonly SessionEvent[], agentId: string, from: number): number {
  const open = new Set<string>();
  for (let i = from; i < events.length; i++) {
    const e = events[i]!;
    if (e.type === 'tool_call' && e.agent_id === agentId) open.add(e.call_id);
    else if (e.type === 'tool_result' && e.agent_id === agentId) open.delete(e.call_id);
  }
  return open.size;
}

function eventLine(e: SessionEvent, agentId: string, max = SUMMARY_EVENT_MAX_CHARS): string | null {
  const cap = (s: string) => (s.length > max ? `${s.slice(0, max)} [...]` : s);
  switch (e.type) {
    case 'user_message':
      return agentId === 'root' ? `USER: ${cap(e.text)}` : null;
    case 'assistant_message':
      return e.agent_id === agentId && e.text ? `AGENT: ${cap(e.text)}` : null;
    case 'tool_call':
      return e.agent_id === agentId ? `TOOL CALL ${e.name}: ${cap(JSON.stringify(e.args))}` : null;
    case 'tool_result':
      return e.agent_id === agentId
        ? `TOOL RESULT ${e.name}: ${cap(renderToolResult(e.payload))}`
        : null;
    case 'question_answer':
      return agentId === 'root' ? `USER ANSWERED: ${cap(JSON.stringify(e.answer))}` : null;
    case 'diagnostics':
      return e.agent_id === agentId ? `DIAGNOSTICS ${e.file}: ${cap(e.text)}` : null;
    default:
      return null;
  }
}

/** Whether the agent's context holds anything after `previous` (what a compaction would replace). */
export function hasContextAfter(
  events: readonly SessionEvent[],
  agentId: string,
  previous: SessionEventOf<'compaction'> | undefined,
): boolean {
  for (let i = previous ? previous.upto_seq + 1 : 0; i < events.length; i++)
    if (eventLine(events[i]!, agentId) !== null) return true;
  return false;
}

export type CompactionOutcome =
  | { ok: true; summary: string; uptoSeq: number; usage: ModelUsage }
  /** `nothing`: too little is old enough to be worth a summary; `failed`: the summary call failed. */
  | { ok: false; why: 'nothing' | 'failed'; reason: string };

export interface CompactInput {
  events: readonly SessionEvent[];
  /** The compaction the agent's context starts from now (its latest one not rewound). */
  previous: SessionEventOf<'compaction'> | undefined;
  agentId: string;
  provider: ModelProvider;
  signal: AbortSignal;
  /**
   * The provider refused the context as too large: everything settled may be summarized, the
   * latest turn included (otherwise the latest turn is always kept verbatim).
   */
  force: boolean;
}

/** A summary must replace at least this share of the context, or it is not worth a model call. */
const MIN_COMPACTED_SHARE = 0.2;

export async function compact(input: CompactInput): Promise<CompactionOutcome> {
  const { events, agentId, provider, previous } = input;
  const start = previous ? previous.upto_seq + 1 : 0;
  const points = cutPoints(events, agentId, start).filter((s) => s > start);
  if (input.force && unresolvedCount(events, agentId, start) === 0) points.push(events.length);
  const budgetChars = inputBudget(provider.contextWindow) * CHARS_PER_TOKEN;
  // Sizes as the context carries them (uncapped), not as the summarizer's transcript quotes them.
  const sizes = events.map((e) => eventLine(e, agentId, Infinity)?.length ?? 0);
  const sizeFrom = (seq: number) => sizes.slice(seq).reduce((n, c) => n + c, 0);
  // The oldest cut whose kept tail fits the keep share; if even the last turn is bigger, keep only
  // it. Forced (the provider refused the size), the window estimate proved too generous: cut as
  // late as possible.
  const latest = points[points.length - 1];
  const cut = input.force
    ? latest
    : (points.find((p) => sizeFrom(p) <= budgetChars * COMPACT_KEEP_SHARE) ?? latest);
  const total = sizeFrom(start);
  if (cut === undefined || total === 0 || (total - sizeFrom(cut)) / total < MIN_COMPACTED_SHARE) {
    return {
      ok: false,
      why: 'nothing',
      reason:
        'nothing old enough to summarize: the latest turn alone is larger than the context window',
    };
  }
  const lines = events
    .slice(start, cut)
    .map((e) => eventLine(e, agentId))
    .filter((l): l is string => l !== null);
  let transcript = lines.join('\n');
  const room = Math.floor(budgetChars * 0.7);
  if (transcript.length > room) {
    const half = Math.floor(room / 2);
    transcript = `${transcript.slice(0, half)}\n[... ${transcript.length - 2 * half} characters of the middle left out ...]\n${transcript.slice(-half)}`;
  }
  const prior = previous ? `Summary of what came before:\n${previous.summary}\n\n` : '';
  try {
    const turn = await provider.complete(
      {
        system: SUMMARIZER_SYSTEM,
        messages: [
          {
            role: 'user',
            text: `${prior}Conversation to summarize:\n${transcript}\n\nWrite the summary now.`,
          },
        ],
        tools: [],
        maxTokens: SUMMARY_MAX_TOKENS,
        plain: true,
      },
      input.signal,
    );
    const summary = turn.text.trim();
    if (!summary)
      return { ok: false, why: 'failed', reason: 'the model returned an empty summary' };
    return {
      ok: true,
      summary,
      uptoSeq: cut - 1,
      usage: turn.usage,
    };
  } catch (err) {
    if (err instanceof ModelError && err.code === 'aborted') throw err;
    return { ok: false, why: 'failed', reason: `summarizing failed: ${(err as Error).message}` };
  }
}
