import { relative, isAbsolute } from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type { SessionEventBody, TransientEvent } from '../../../../shared/protocol/events';
import type { ToolPayload } from '../../../../shared/tools/payload';
import { newMessageId } from '../../sessions/session-runner';
import { titleFromMessage } from '../../sessions/session-title';
import { diffPayload, type EditedFile } from '../../tools/diff-payload';
import { appModeFor, modesEvent, optionsEvent } from './agent-settings';
import { MAX_TURN_TEXT_CHARS, MAX_UPDATES_PER_TURN } from './constants';

// An external agent's session/update notifications as the session's own log (issue 30 part 2):
// message chunks stream as assistant deltas and are logged as one assistant_message (thought
// chunks as its thinking) when something else starts or the turn ends; tool_call and
// tool_call_update become the app's tool_call / tool_result pair (a diff as the diff payload, a
// terminal as the shell payload of the console it ran in); plan becomes the todo dock;
// available_commands_update the `/` commands; current_mode_update the agent's mode (and the app's
// permission mode where it has one like it); config_option_update its settings; usage_update its
// context meter; session_info_update the session's title. Export, search, titles and the phone
// read the log, so they work unchanged.

/** An ACP tool call's name on its card: what kind of work it is. */
export const acpToolName = (kind: string | null | undefined) => `acp_${kind ?? 'other'}`;

interface ToolState {
  title: string;
  kind: string | null | undefined;
  status: acp.ToolCallStatus | null | undefined;
  content: acp.ToolCallContent[];
  rawOutput: unknown;
  done: boolean;
}

export interface UpdateLogDeps {
  append(event: SessionEventBody): Promise<void>;
  emitTransient(event: TransientEvent): void;
  /** The session's root: diff paths are shown relative to it. */
  root: string;
  /** The command and output of one of the client's terminals, for a card that shows it. */
  terminal(
    terminalId: string,
  ): { shellId: string; command: string; output: string; exitCode: number | null } | undefined;
  /** The agent's modes as it reported them last (current_mode_update names only the new one). */
  modes(): acp.SessionModeState | null;
  /** Whether the user has named the session (an agent's title then leaves it alone). */
  namedByUser(): boolean;
}

/** One connection's updates, applied in arrival order (one chain), per turn bounded. */
export class UpdateLog {
  private chain = Promise.resolve();
  private message: { id: string; text: string; thinking: string } | null = null;
  private readonly tools = new Map<string, ToolState>();
  private updates = 0;
  private flooded = false;
  private userText = '';
  private lastUsage = '';

  constructor(private readonly deps: UpdateLogDeps) {}

  /** A new prompt turn: the flood bound starts over. */
  beginTurn(): void {
    this.updates = 0;
    this.flooded = false;
  }

  /** Queues one update; resolves once it (and everything before it) is in the log. */
  apply(update: acp.SessionUpdate): Promise<void> {
    if (this.flooded) return this.chain;
    if (++this.updates > MAX_UPDATES_PER_TURN) {
      this.flooded = true;
      return this.enqueue(() =>
        this.deps.append({
          type: 'error',
          code: 'agent_flood',
          message: `The agent sent more than ${MAX_UPDATES_PER_TURN} updates in one turn; the rest of this turn's updates are not shown.`,
        }),
      );
    }
    return this.enqueue(() => this.record(update));
  }

  /** Runs `fn` after the updates queued so far (an approval card after the tool card it is for). */
  enqueue(fn: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(fn).catch((err: unknown) => {
      console.error('[acp] could not log an update', err);
    });
    return this.chain;
  }

  /** The turn ended: what streamed is logged, and calls the agent left open are closed. */
  endTurn(stopped: boolean): Promise<void> {
    return this.enqueue(async () => {
      await this.flushMessage(stopped);
      await this.flushUserText();
      for (const [id, t] of this.tools)
        if (!t.done)
          await this.result(id, t, {
            kind: 'error',
            code: stopped ? 'stopped' : 'unfinished',
            message: stopped
              ? 'The user stopped the run before this call finished.'
              : 'The agent ended its turn without finishing this call.',
          });
      this.tools.clear();
    });
  }

  /** A tool call the log shows (for an approval that names one the agent never announced). */
  async ensureToolCall(call: acp.ToolCallUpdate): Promise<void> {
    if (this.tools.has(call.toolCallId)) return;
    await this.record({
      sessionUpdate: 'tool_call',
      ...call,
      title: call.title ?? 'Tool call',
    } as acp.SessionUpdate);
  }

  private async record(u: acp.SessionUpdate): Promise<void> {
    switch (u.sessionUpdate) {
      case 'agent_message_chunk':
      case 'agent_thought_chunk': {
        await this.flushUserText();
        const text = blockText(u.content);
        if (!text) return;
        this.message ??= { id: newMessageId(), text: '', thinking: '' };
        const m = this.message;
        if (u.sessionUpdate === 'agent_thought_chunk') {
          if (m.thinking.length >= MAX_TURN_TEXT_CHARS) return;
          m.thinking += text;
          // Streamed like the answer so the user reads the thinking as it comes, not only after.
          this.deps.emitTransient({
            type: 'assistant_delta',
            message_id: m.id,
            agent_id: 'root',
            text,
            thinking: true,
          });
          return;
        }
        if (m.text.length >= MAX_TURN_TEXT_CHARS) return;
        m.text += text;
        this.deps.emitTransient({
          type: 'assistant_delta',
          message_id: m.id,
          agent_id: 'root',
          text,
        });
        return;
      }
      case 'user_message_chunk':
        await this.flushMessage(false);
        this.userText += blockText(u.content);
        return;
      case 'tool_call': {
        await this.flushAll();
        const t: ToolState = {
          title: u.title,
          kind: u.kind,
          status: u.status,
          content: u.content ?? [],
          rawOutput: u.rawOutput,
          done: false,
        };
        this.tools.set(u.toolCallId, t);
        await this.deps.append({
          type: 'tool_call',
          call_id: u.toolCallId,
          agent_id: 'root',
          name: acpToolName(u.kind),
          args: {
            title: u.title,
            ...(u.rawInput !== undefined ? { input: u.rawInput } : {}),
            ...(u.locations?.length ? { locations: u.locations.map((l) => l.path) } : {}),
          },
        });
        await this.settle(u.toolCallId, t);
        return;
      }
      case 'tool_call_update': {
        const t = this.tools.get(u.toolCallId);
        if (!t || t.done) return;
        if (u.title) t.title = u.title;
        if (u.kind) t.kind = u.kind;
        if (u.status) t.status = u.status;
        if (u.content) t.content = u.content;
        if (u.rawOutput !== undefined) t.rawOutput = u.rawOutput;
        if (t.status === 'completed' || t.status === 'failed') await this.settle(u.toolCallId, t);
        else
          this.deps.emitTransient({
            type: 'tool_progress',
            call_id: u.toolCallId,
            agent_id: 'root',
            progress: 0,
            total: null,
            message: t.title,
          });
        return;
      }
      case 'plan':
        await this.flushAll();
        await this.deps.append({
          type: 'todos',
          source: 'agent',
          agent_id: 'root',
          items: u.entries.map((e) => ({ label: e.content.slice(0, 200), status: e.status })),
        });
        return;
      case 'available_commands_update':
        await this.deps.append({
          type: 'agent_commands',
          commands: u.availableCommands.map((c) => ({
            name: c.name,
            description: c.description,
            ...(c.input && 'hint' in c.input ? { hint: c.input.hint } : {}),
          })),
        });
        return;
      case 'current_mode_update': {
        const mode = appModeFor(u.currentModeId);
        if (mode) await this.deps.append({ type: 'mode_change', mode });
        const modes = this.deps.modes();
        await this.deps.append(
          modesEvent({
            currentModeId: u.currentModeId,
            availableModes: modes?.availableModes ?? [
              { id: u.currentModeId, name: u.currentModeId },
            ],
          }),
        );
        return;
      }
      case 'config_option_update':
        await this.deps.append(optionsEvent(u.configOptions));
        return;
      case 'usage_update': {
        const usage = {
          type: 'agent_usage' as const,
          used: u.used,
          size: u.size,
          ...(u.cost ? { cost: { amount: u.cost.amount, currency: u.cost.currency } } : {}),
        };
        // Agents repeat an unchanged figure; the log keeps changes only.
        const key = JSON.stringify(usage);
        if (key === this.lastUsage) return;
        this.lastUsage = key;
        await this.deps.append(usage);
        return;
      }
      case 'session_info_update': {
        // A title cleared (null) leaves the app's own; the agent's activity time is not the app's;
        // a name the user gave the session stays.
        const title = u.title ? titleFromMessage(u.title) : null;
        if (title && !this.deps.namedByUser())
          await this.deps.append({ type: 'session_renamed', title, by: 'agent' });
        return;
      }
      default:
        // Kinds of later protocol versions (notices, compaction) the app has no place for yet.
        return;
    }
  }

  private async flushAll(): Promise<void> {
    await this.flushMessage(false);
    await this.flushUserText();
  }

  private async flushMessage(stopped: boolean): Promise<void> {
    const m = this.message;
    if (!m) return;
    this.message = null;
    await this.deps.append({
      type: 'assistant_message',
      message_id: m.id,
      agent_id: 'root',
      text: m.text,
      ...(m.thinking ? { thinking: m.thinking } : {}),
      ...(stopped ? { stopped: true } : {}),
    });
  }

  /** What the agent says the user said (a replay): shown as a note, never sent on as input. */
  private async flushUserText(): Promise<void> {
    const text = this.userText.trim();
    this.userText = '';
    if (text)
      await this.deps.append({
        type: 'notice',
        code: 'agent_user_message',
        message: `The agent recorded a user message: ${text}`,
      });
  }

  private async settle(id: string, t: ToolState): Promise<void> {
    if (t.status !== 'completed' && t.status !== 'failed') return;
    await this.result(id, t, this.payload(t));
  }

  private async result(id: string, t: ToolState, payload: ToolPayload): Promise<void> {
    t.done = true;
    await this.deps.append({
      type: 'tool_result',
      call_id: id,
      agent_id: 'root',
      name: acpToolName(t.kind),
      payload,
    });
  }

  /** The card's payload: a diff, the console a command ran in, or the call's text. */
  private payload(t: ToolState): ToolPayload {
    const text = t.content
      .flatMap((c) => (c.type === 'content' ? [blockText(c.content)] : []))
      .join('\n');
    if (t.status === 'failed')
      return { kind: 'error', code: 'tool_failed', message: text || `${t.title} failed` };
    const diffs = t.content.filter(
      (c): c is Extract<acp.ToolCallContent, { type: 'diff' }> => c.type === 'diff',
    );
    if (diffs.length) {
      const files: EditedFile[] = diffs.map((d) => ({
        shown: isAbsolute(d.path) ? relative(this.deps.root, d.path) || d.path : d.path,
        before: d.oldText ?? '',
        after: d.newText,
        created: d.oldText === null || d.oldText === undefined,
      }));
      return diffPayload(files, { title: t.title });
    }
    const terminal = t.content.find((c) => c.type === 'terminal');
    const shell = terminal && this.deps.terminal(terminal.terminalId);
    if (shell)
      return {
        kind: 'shell',
        command: shell.command,
        shell_id: shell.shellId,
        stdout: shell.output,
        ...(shell.exitCode !== null ? { exit_code: shell.exitCode } : {}),
      };
    return {
      kind: 'text',
      title: t.title,
      text: text || (t.rawOutput !== undefined ? JSON.stringify(t.rawOutput) : ''),
    };
  }
}

/** The text of a content block (a resource by its text or its link). */
export function blockText(block: acp.ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource_link':
      return `[${block.name}](${block.uri})`;
    case 'resource':
      return 'text' in block.resource ? block.resource.text : `[${block.resource.uri}]`;
    default:
      return `[${block.type}]`;
  }
}
