import type { SessionEvent } from '../../../shared/protocol/events';
import { visibleEvents } from '../../../shared/protocol/rewinds';
import type { SessionMeta } from './session';

// A session as a readable markdown transcript: the messages, each tool call with its arguments and
// its result folded under <details>, edits as diff blocks. Rewound turns are left out, as they are
// from the conversation.

/** A fence longer than any backtick run inside `text`, so the block cannot be closed early. */
function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text.replace(/\n$/, '')}\n${f}`;
}

function resultBody(payload: Record<string, unknown>): string {
  if (payload.kind === 'diff' && typeof payload.text === 'string')
    return fence(payload.text, 'diff');
  if (payload.kind === 'error')
    return `**error** \`${String(payload.code)}\`: ${String(payload.message)}`;
  const output = payload.stdout ?? payload.output ?? payload.content;
  if (typeof output === 'string') return fence(output);
  return fence(JSON.stringify(payload, null, 2), 'json');
}

export function markdownTranscript(meta: SessionMeta, log: readonly SessionEvent[]): string {
  const events = visibleEvents(log);
  const out: string[] = [`# ${meta.title}`, ''];
  if (meta.root) out.push(`Project: \`${meta.root}\``, '');
  const calls = new Map<string, Extract<SessionEvent, { type: 'tool_call' }>>();
  for (const e of events) {
    switch (e.type) {
      case 'user_message':
        out.push('## User', '', e.text, '');
        break;
      case 'assistant_message':
        if (e.text.trim())
          out.push(
            e.agent_id === 'root' ? '## Assistant' : `## Sub-agent ${e.agent_id}`,
            '',
            e.text,
            '',
          );
        break;
      case 'tool_call':
        calls.set(e.call_id, e);
        break;
      case 'tool_result': {
        const call = calls.get(e.call_id);
        out.push(
          `<details><summary>Tool: ${e.name}</summary>`,
          '',
          fence(JSON.stringify(call?.args ?? {}, null, 2), 'json'),
          '',
          resultBody(e.payload as Record<string, unknown>),
          '',
          '</details>',
          '',
        );
        break;
      }
      case 'question_answer':
        out.push('## Answer', '', fence(JSON.stringify(e.answer, null, 2), 'json'), '');
        break;
      case 'project_switch':
        out.push(`_Moved to project \`${e.root}\`._`, '');
        break;
      case 'rewind':
        out.push(
          e.undo_of === undefined
            ? `_Rewound (${e.mode}) to an earlier message._`
            : `_Undid a rewind._`,
          '',
        );
        break;
      case 'error':
        out.push(`> **Error**${e.code ? ` (${e.code})` : ''}: ${e.message}`, '');
        break;
      case 'notice':
        out.push(`> **Note**: ${e.message}`, '');
        break;
      default:
        break;
    }
  }
  return out.join('\n');
}
