import type { ImageWire, SessionEvent, SessionEventOf } from '../../../shared/protocol/events';
import { visibleEvents } from '../../../shared/protocol/rewinds';
import { errorPayload } from '../../../shared/tools/payload';
import type { ModelImage, ModelMessage, ModelToolCall, ReasoningBlocks } from '../models/types';
import { formatAnswerText } from './question-format';
import { renderToolResult, resultImages } from './render-result';
import { withMentionedFiles } from '../sessions/file-mentions';
import { withPastedTexts } from '../../../shared/attachments/pasted-text';

// The model's context, rebuilt from the session log for one agent: a restarted host continues a
// session from its log alone. A model turn starts at its `usage` event (appended first), gathers
// its text and tool calls, and its results follow it. User-side input that arrives while a turn's
// calls are outstanding is placed after their results, as both wire protocols require. The latest
// compaction of this agent replaces everything up to its `upto_seq` with its summary. A turn's
// reasoning blocks (thinking with signatures, encrypted reasoning items) travel with it verbatim;
// a paused turn (pause_turn) ends the context so the model continues it.

interface Turn {
  text: string;
  calls: ModelToolCall[];
  results: Map<string, Extract<ModelMessage, { role: 'tool' }>>;
  reasoning?: ReasoningBlocks;
  paused?: boolean;
}

const toModelImages = (images: readonly ImageWire[] | undefined): ModelImage[] =>
  (images ?? []).map((i) => ({ mediaType: i.media_type, data: i.data }));

export const INTERRUPTED_MESSAGE =
  'no result was recorded for this call: the run was interrupted before it finished';

export interface ContextOptions {
  /** A sub-agent's task: its first user message. */
  task?: string;
  /** Rendered results by event (events never change, and rendering a big result every step adds up). */
  rendered?: WeakMap<object, string>;
}

export function latestCompaction(
  events: readonly SessionEvent[],
  agentId: string,
): SessionEventOf<'compaction'> | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type === 'compaction' && e.agent_id === agentId) return e;
  }
  return undefined;
}

export function buildContext(
  log: readonly SessionEvent[],
  agentId: string,
  opts: ContextOptions = {},
): ModelMessage[] {
  const isRoot = agentId === 'root';
  // A rewound conversation leaves its hidden turns (and any compaction among them) out.
  const events = visibleEvents(log);
  const compaction = latestCompaction(events, agentId);
  const after = compaction ? events.findIndex((e) => e.seq > compaction.upto_seq) : 0;
  const start = after === -1 ? events.length : after;
  const questions = new Map<string, SessionEventOf<'question'>>();
  const expanded = new Map<string, string>();
  for (const e of events) {
    if (e.type === 'question') questions.set(e.question_id, e);
    else if (e.type === 'command_expanded') expanded.set(e.message_id, e.text);
  }

  const messages: ModelMessage[] = [];
  let user: string[] = [];
  let images: ModelImage[] = [];
  let turn: Turn | null = null;

  const flushUser = () => {
    if (user.length || images.length)
      messages.push({
        role: 'user',
        text: user.join('\n\n'),
        ...(images.length ? { images } : {}),
      });
    user = [];
    images = [];
  };
  const closeTurn = () => {
    if (turn) {
      messages.push({
        role: 'assistant',
        text: turn.text,
        toolCalls: turn.calls,
        ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
        ...(turn.paused ? { paused: true } : {}),
      });
      for (const call of turn.calls) {
        messages.push(
          turn.results.get(call.id) ?? {
            role: 'tool',
            callId: call.id,
            name: call.name,
            content: renderToolResult(errorPayload('interrupted', INTERRUPTED_MESSAGE)),
            isError: true,
          },
        );
      }
      turn = null;
    }
    flushUser();
  };
  const startTurn = (text: string): Turn => {
    closeTurn();
    turn = { text, calls: [], results: new Map() };
    return turn;
  };
  const userText = (text: string, withImages: ModelImage[] = []) => {
    const t = turn as Turn | null;
    if (t && (t.calls.length === 0 || t.results.size === t.calls.length)) closeTurn();
    user.push(text);
    images.push(...withImages);
  };

  if (opts.task) user.push(opts.task);
  if (compaction)
    user.push(
      `[Earlier turns of this conversation were compacted. Summary:]\n${compaction.summary}`,
    );

  for (let i = start; i < events.length; i++) {
    const e = events[i]!;
    switch (e.type) {
      case 'user_message':
        if (isRoot)
          userText(
            withPastedTexts(
              withMentionedFiles(expanded.get(e.message_id) ?? e.text, e.mentions),
              e.pastes,
            ),
            toModelImages(e.images),
          );
        break;
      case 'usage':
        if (e.agent_id === agentId) startTurn('');
        break;
      case 'assistant_message': {
        if (e.agent_id !== agentId) break;
        const t: Turn =
          turn && (turn as Turn).text === '' && (turn as Turn).calls.length === 0
            ? turn
            : startTurn('');
        t.text = e.text;
        if (e.reasoning) t.reasoning = e.reasoning;
        t.paused = e.stop_reason === 'pause_turn';
        break;
      }
      case 'tool_call': {
        if (e.agent_id !== agentId) break;
        const t: Turn = turn && (turn as Turn).results.size === 0 ? turn : startTurn('');
        t.calls.push({ id: e.call_id, name: e.name, args: e.args });
        break;
      }
      case 'tool_result': {
        if (e.agent_id !== agentId || !turn) break;
        const t = turn as Turn;
        if (!t.calls.some((c) => c.id === e.call_id)) break;
        let content = opts.rendered?.get(e);
        if (content === undefined) {
          content = renderToolResult(e.payload);
          opts.rendered?.set(e, content);
        }
        t.results.set(e.call_id, {
          role: 'tool',
          callId: e.call_id,
          name: e.name,
          content,
          isError: e.payload.kind === 'error',
          ...resultImages(e.payload),
        });
        break;
      }
      case 'instructions_loaded':
        if (e.agent_id === agentId)
          user.push(`[Instructions from ${e.file}, for work in its directory:]\n${e.text}`);
        break;
      case 'hook_run':
        // What the user's hook said to the model: its context, or why it blocked.
        if (e.to_model && e.agent_id === agentId)
          userText(`[${e.hook_event} hook (${e.command}):]\n${e.to_model}`);
        break;
      case 'diagnostics':
        if (e.agent_id === agentId)
          user.push(`[Diagnostics after your edit of ${e.file}:]\n${e.text}`);
        break;
      case 'question_answer': {
        if (!isRoot || e.delivery !== 'late') break;
        const q = questions.get(e.question_id);
        userText(
          `[Late answer to your earlier question${q ? ` (${q.questions.map((x) => x.header).join(', ')})` : ''}:]\n${q ? formatAnswerText(q.questions, e.answer) : JSON.stringify(e.answer)}`,
        );
        break;
      }
      case 'mode_change':
        if (isRoot) userText(`[The permission mode is now "${e.mode}".]`);
        break;
      case 'project_switch':
        if (isRoot) userText(`[The session moved to project ${e.to} at ${e.root}.]`);
        break;
      default:
        break;
    }
  }
  closeTurn();
  const last = messages[messages.length - 1];
  if (!last || (last.role === 'assistant' && !last.paused))
    messages.push({ role: 'user', text: '(continue)' });
  return messages;
}
