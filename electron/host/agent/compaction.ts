import type { SessionEvent } from '../../../shared/protocol/events';
import { ModelError } from '../models/model-error';
import type { ModelProvider } from '../models/types';
import { CHARS_PER_TOKEN, COMPACT_KEEP_SHARE, SUMMARY_EVENT_MAX_CHARS, SUMMARY_MAX_TOKENS } from './constants';
import { latestCompaction } from './context-builder';
import { renderToolResult } from './render-result';
import { inputBudget } from './token-estimate';

// The context budget: when an agent's context outgrows the model's window, its older turns are
// summarized by the model into a compaction event; the context is then rebuilt from the summary
// plus the turns after it. The log itself keeps everything (the UI, tool_search's discovery and
// a later compaction still read it).

const SUMMARIZER_SYSTEM =
  'You summarize the earlier part of a conversation between a user and a coding agent, so the agent can continue ' +
  'the work without it. Keep: the user\'s requests and preferences; decisions made; files read or changed (paths) and ' +
  'what changed; commands run and their outcomes; errors met and how they were solved; open questions and the next ' +
  'steps. Be specific (names, paths, numbers). Write plain prose and lists, no preamble.';

/** Seqs where a new exchange starts and nothing of this agent is outstanding: safe cut points. */
export function cutPoints(events: readonly SessionEvent[], agentId: string, from: number): number[] {
  const points: number[] = [];
  const open = new Set<string>();
  for (let i = from; i < events.length; i++) {
    const e = events[i]!;
    if (e.type === 'tool_call' && e.agent_id === agentId) open.add(e.call_id);
    else if (e.type === 'tool_result' && e.agent_id === agentId) open.delete(e.call_id);
    else if (open.size === 0 && ((e.type === 'usage' && e.agent_id === agentId) || (agentId === 'root' && e.type === 'user_message'))) {
      if (points[points.length - 1] !== e.seq) points.push(e.seq);
    }
  }
  return points;
}

function eventLine(e: SessionEvent, agentId: string): string | null {
  const cap = (s: string) => (s.length > SUMMARY_EVENT_MAX_CHARS ? `${s.slice(0, SUMMARY_EVENT_MAX_CHARS)} [...]` : s);
  switch (e.type) {
    case 'user_message':
      return agentId === 'root' ? `USER: ${cap(e.text)}` : null;
    case 'assistant_message':
      return e.agent_id === agentId && e.text ? `AGENT: ${cap(e.text)}` : null;
    case 'tool_call':
      return e.agent_id === agentId ? `TOOL CALL ${e.name}: ${cap(JSON.stringify(e.args))}` : null;
    case 'tool_result':
      return e.agent_id === agentId ? `TOOL RESULT ${e.name}: ${cap(renderToolResult(e.payload))}` : null;
    case 'question_answer':
      return agentId === 'root' ? `USER ANSWERED: ${cap(JSON.stringify(e.answer))}` : null;
    case 'diagnostics':
      return e.agent_id === agentId ? `DIAGNOSTICS ${e.file}: ${cap(e.text)}` : null;
    default:
      return null;
  }
}

export type CompactionOutcome =
  | { ok: true; summary: string; uptoSeq: number }
  | { ok: false; reason: string };

export interface CompactInput {
  events: readonly SessionEvent[];
  agentId: string;
  provider: ModelProvider;
  signal: AbortSignal;
}

export async function compact(input: CompactInput): Promise<CompactionOutcome & { usage?: { input: number; output: number } }> {
  const { events, agentId, provider } = input;
  const previous = latestCompaction(events, agentId);
  const start = previous ? previous.upto_seq + 1 : 0;
  const points = cutPoints(events, agentId, start).filter((s) => s > start);
  if (!points.length) return { ok: false, reason: 'the conversation is a single turn larger than the context window; nothing older can be compacted' };
  const budgetChars = inputBudget(provider.contextWindow) * CHARS_PER_TOKEN;
  const sizeFrom = (seq: number) => events.slice(seq).reduce((n, e) => n + (eventLine(e, agentId)?.length ?? 0), 0);
  // The oldest cut whose kept tail fits the keep share; if even the last turn is bigger, keep only it.
  const cut = points.find((p) => sizeFrom(p) <= budgetChars * COMPACT_KEEP_SHARE) ?? points[points.length - 1]!;
  const lines = events.slice(start, cut).map((e) => eventLine(e, agentId)).filter((l): l is string => l !== null);
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
        messages: [{ role: 'user', text: `${prior}Conversation to summarize:\n${transcript}\n\nWrite the summary now.` }],
        tools: [],
        maxTokens: SUMMARY_MAX_TOKENS,
      },
      input.signal,
    );
    const summary = turn.text.trim();
    if (!summary) return { ok: false, reason: 'the model returned an empty summary' };
    return { ok: true, summary, uptoSeq: cut - 1, usage: { input: turn.usage.inputTokens, output: turn.usage.outputTokens } };
  } catch (err) {
    if (err instanceof ModelError && err.code === 'aborted') throw err;
    return { ok: false, reason: `summarizing failed: ${(err as Error).message}` };
  }
}
