import type { SessionUpdate } from '@agentclientprotocol/sdk';
import type { SessionStreamItem } from '../../sessions/session';
import { isConnectionApproval } from '../../agent/network-approval';
import { textContent, toolCallEnd, toolCallStart } from './tool-call-view';

// The app's session log as ACP `session/update`s (`mewbo acp`): streamed text as message chunks,
// thinking as thought chunks, tool calls and their results, the todo list as a plan, mode changes,
// a connection's approval (which has no tool call) as a fetch card of its own.
// One mapper per session and connection: it remembers which messages streamed (so their final
// event is not sent twice) and each call's root. Replaying a log (session/load) also sends the
// user's messages; a live turn does not (the client sent them).

export interface SessionUpdateMapperOptions {
  /** The session's project root: ACP paths are absolute. */
  root: string;
  /** Replaying a stored log: user messages are sent too, and no message has streamed. */
  replay: boolean;
}

export class SessionUpdateMapper {
  /** Messages whose text went out as deltas: their assistant_message sends only the thinking. */
  private readonly streamed = new Set<string>();
  /** Connection approvals asked and not yet decided: approval id to their card's id. */
  private readonly connectionCalls = new Map<string, string>();

  constructor(private readonly opts: SessionUpdateMapperOptions) {}

  updates(item: SessionStreamItem): SessionUpdate[] {
    switch (item.type) {
      case 'assistant_delta':
        if (item.agent_id !== 'root' || !item.text) return [];
        this.streamed.add(item.message_id);
        return [
          {
            sessionUpdate: 'agent_message_chunk',
            messageId: item.message_id,
            content: { type: 'text', text: item.text },
          },
        ];
      case 'assistant_message': {
        if (item.agent_id !== 'root') return [];
        const out: SessionUpdate[] = [];
        if (item.thinking)
          out.push({
            sessionUpdate: 'agent_thought_chunk',
            messageId: item.message_id,
            content: { type: 'text', text: item.thinking },
          });
        if (item.text && !this.streamed.has(item.message_id))
          out.push({
            sessionUpdate: 'agent_message_chunk',
            messageId: item.message_id,
            content: { type: 'text', text: item.text },
          });
        this.streamed.delete(item.message_id);
        return out;
      }
      case 'user_message':
        if (!this.opts.replay) return [];
        return [
          {
            sessionUpdate: 'user_message_chunk',
            messageId: item.message_id,
            content: { type: 'text', text: item.text },
          },
        ];
      case 'tool_call': {
        const start = toolCallStart(item.name, item.args, this.opts.root);
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: item.call_id,
            name: item.name,
            title: start.title,
            kind: start.kind,
            status: 'in_progress',
            locations: start.locations,
            rawInput: item.args,
          },
        ];
      }
      case 'tool_result': {
        const end = toolCallEnd(item.payload, this.opts.root, !this.opts.replay);
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: item.call_id,
            status: end.status,
            ...(end.title ? { title: end.title } : {}),
            content: end.content,
          },
        ];
      }
      case 'todos':
        if (item.agent_id !== 'root') return [];
        return [
          {
            sessionUpdate: 'plan',
            entries: item.items.map((t) => ({
              content: t.label,
              status: t.status,
              priority: 'medium',
            })),
          },
        ];
      case 'approval_request':
        // A connection's approval belongs to no tool call: it gets a card of its own to ask on.
        if (!isConnectionApproval(item)) return [];
        this.connectionCalls.set(item.approval_id, item.call_id);
        return [
          {
            sessionUpdate: 'tool_call',
            toolCallId: item.call_id,
            title: item.summary,
            kind: 'fetch',
            status: 'pending',
            content: [textContent(item.detail)],
          },
        ];
      case 'approval_decision': {
        const request = this.connectionCalls.get(item.approval_id);
        if (!request) return [];
        this.connectionCalls.delete(item.approval_id);
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: request,
            status: item.decision === 'allow' ? 'completed' : 'failed',
          },
        ];
      }
      case 'mode_change':
        return [{ sessionUpdate: 'current_mode_update', currentModeId: item.mode }];
      case 'session_renamed':
        return [{ sessionUpdate: 'session_info_update', title: item.title }];
      case 'error':
        // A failed run's reason also ends the prompt as an error; a replay has only this to show.
        return this.opts.replay
          ? [
              {
                sessionUpdate: 'agent_message_chunk',
                content: { type: 'text', text: `Error: ${item.message}` },
              },
            ]
          : [];
      default:
        return [];
    }
  }
}
