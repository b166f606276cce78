import { randomBytes } from 'node:crypto';
import type { ClientCapability } from '../../../shared/protocol/capabilities';
import type { PermissionModeWire } from '../../../shared/protocol/common';
import type {
  FileMention,
  ImageWire,
  RemoteVia,
  ThinkingWire,
} from '../../../shared/protocol/events';
import type { Session } from './session';
import type { ClientServices } from '../tools/services';
import type { PastedText } from '../../../shared/attachments/pasted-text';

export interface SendOptions {
  capabilities: ClientCapability[];
  images?: ImageWire[];
  /** Files the message names with `@path`, read at send time (sessions/file-mentions.ts). */
  mentions?: FileMention[];
  /** Sent from a paired phone (remote rights): recorded on the user_message. */
  via?: RemoteVia;
  /** Long pastes the composer kept as chips (shared/attachments/pasted-text.ts). */
  pastes?: PastedText[];
  /** What the sending client serves the tools (an ACP editor's files), for runs until the next send. */
  clientServices?: ClientServices;
}

/** What `/compact` and `/clear` did; `message` says why not, in the user's words. */
export interface CompactResult {
  compacted: boolean;
  message: string | null;
}

/** What turns a user message into a run. The agent runtime implements it. */
export interface SessionRunner {
  send(session: Session, text: string, opts: SendOptions): Promise<{ message_id: string }>;
  stop(session: Session): Promise<void>;
  /** Makes the latest turn's answer again (Regenerate), keeping the earlier one as a version. */
  regenerate(
    session: Session,
    messageId: string,
    opts: { capabilities: ClientCapability[] },
  ): Promise<void>;
  setMode(session: Session, mode: PermissionModeWire): Promise<void>;
  /** The session's model (and thinking) from its next run on; null model: the app's default. */
  setModel(session: Session, model: string | null, thinking?: ThinkingWire): Promise<void>;
  /** `/compact` (summarize) or `/clear` (start empty): the root agent's context from here on. */
  compact(session: Session, opts: { clear?: boolean }): Promise<CompactResult>;
}

export function newMessageId(): string {
  return `m_${randomBytes(8).toString('hex')}`;
}
