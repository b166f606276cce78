import {
  DEFAULT_REMOTE_READ,
  MAX_REMOTE_DETAIL_CHARS,
  REMOTE_ACTION_TYPES,
  REMOTE_VERSIONS,
  remoteItemId,
  remoteRequestSchema,
  type RemoteErrorCode,
  type RemoteHostFrame,
  type RemoteItem,
  type RemoteRequest,
} from '../../../shared/device/remote-frames';
import { MAX_FRAME_BYTES } from '../../../shared/device/limits';
import { DisposableObject, toDisposable, type Disposable } from '../lifecycle/disposable';
import type { Clock } from './clock';
import * as C from './constants';
import type { DesktopFocus } from './desktop-focus';
import type { DeviceConnection } from './device-connection';
import { RemoteRefusal, tooLarge, type RemoteBackend } from './remote-backend';
import { TokenBucket } from './rate-limiter';

// The protocol side of the remote frames (PROTOCOL.md "Remote frames"): the device's right is
// checked on every frame, then the version, the schema and the device's budgets; then the backend
// does the work and the reply goes back with the request's id. Also the pushes: remote_changed
// (coalesced) and remote_notify when a session starts waiting while no desktop window is focused.

/** Who sent a frame, as the hub knows it now (rights are read from the store per frame). */
export interface RemoteSender {
  deviceId: string;
  name: string;
  remote: boolean;
  /** The right, read again just before an action is taken. */
  stillRemote(): boolean;
}

/** Attached devices that hold the remote right now. */
export type RemoteTargets = () => DeviceConnection[];

interface Budgets {
  requests: TokenBucket;
  actions: TokenBucket;
  messages: TokenBucket;
}

/** Room left in a frame for its envelope after the items are measured. */
const FRAME_SLACK = 4096;
/** Items already announced by remote_notify, remembered at most this many. */
const MAX_NOTIFIED = 2000;

export class RemoteDesk extends DisposableObject {
  private backend: RemoteBackend | undefined;
  private readonly budgets = new Map<string, Budgets>();
  private readonly notified = new Set<string>();
  private pushTimer: NodeJS.Timeout | undefined;
  private backendSubs: Disposable[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly focus: DesktopFocus,
    private readonly targets: RemoteTargets,
  ) {
    super();
    this.register(
      toDisposable(() => {
        clearTimeout(this.pushTimer);
        for (const d of this.backendSubs) d.dispose();
      }),
    );
  }

  /** The app's sessions, once they exist (the hub is built before the agent). */
  setBackend(backend: RemoteBackend): Disposable {
    for (const d of this.backendSubs) d.dispose();
    this.backend = backend;
    this.backendSubs = [
      backend.onDidChange(() => this.schedulePush()),
      backend.onDidStartWaiting((id) => void this.notifyWaiting(id)),
    ];
    return toDisposable(() => {
      if (this.backend !== backend) return;
      for (const d of this.backendSubs) d.dispose();
      this.backendSubs = [];
      this.backend = undefined;
    });
  }

  /** Forgets a device's budgets (it was revoked). */
  forget(deviceId: string): void {
    this.budgets.delete(deviceId);
  }

  /** One remote_* frame; 'malformed' counts against the socket's malformed budget. */
  handle(conn: DeviceConnection, sender: RemoteSender, frame: unknown): 'ok' | 'malformed' {
    const loose = frame as { req_id?: unknown; v?: unknown };
    const reqId = typeof loose.req_id === 'string' ? loose.req_id.slice(0, 64) : null;
    const fail = (code: RemoteErrorCode, message: string) =>
      conn.send({ type: 'remote_error', v: 1, req_id: reqId, code, message });
    if (!sender.remote) {
      fail(
        'no_remote_rights',
        'this device has no remote rights: turn "Remote" on for it in the Pair phone dialog',
      );
      return 'malformed';
    }
    if (!(REMOTE_VERSIONS as readonly unknown[]).includes(loose.v)) {
      fail('unsupported_version', `remote frames need "v" one of ${REMOTE_VERSIONS.join(', ')}`);
      return 'malformed';
    }
    const parsed = remoteRequestSchema.safeParse(frame);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : '';
      fail('bad_request', `${where}${issue?.message ?? 'invalid'}`);
      return 'malformed';
    }
    const req = parsed.data;
    if (!this.spend(sender.deviceId, req.type)) {
      fail('rate_limited', 'too many remote requests: wait a moment');
      return 'ok';
    }
    const backend = this.backend;
    if (!backend) {
      fail('internal_error', 'sessions are not available yet: try again');
      return 'ok';
    }
    this.run(backend, req, sender).then(
      (reply) => conn.send(reply),
      (err: unknown) => {
        if (err instanceof RemoteRefusal) return fail(err.code, err.message);
        console.error(`devices: remote ${req.type} failed`, err);
        fail('internal_error', 'the desktop could not do this; try again');
      },
    );
    return 'ok';
  }

  private async run(
    backend: RemoteBackend,
    req: RemoteRequest,
    sender: RemoteSender,
  ): Promise<RemoteHostFrame> {
    const head = { v: 1, req_id: req.req_id };
    const via = { device_id: sender.deviceId, device_name: sender.name };
    switch (req.type) {
      case 'remote_sessions':
        return { type: 'remote_sessions', ...head, sessions: await backend.sessions() };
      case 'remote_pending': {
        const items = (await backend.pending(req.session_id)).map(clipItem);
        return fitPending({ type: 'remote_pending', ...head, total: items.length, items });
      }
      case 'remote_decide':
        await backend.decide(
          {
            session_id: req.session_id,
            approval_id: req.approval_id,
            hash: req.hash,
            decision: req.decision,
            ...(req.reason?.trim() ? { reason: req.reason } : {}),
            ...(req.option ? { option: req.option } : {}),
          },
          via,
          sender.stillRemote,
        );
        return { type: 'remote_done', ...head };
      case 'remote_answer':
        await backend.answer(
          {
            session_id: req.session_id,
            question_id: req.question_id,
            answers: req.answers,
            ...(req.notes !== undefined ? { notes: req.notes } : {}),
          },
          via,
          sender.stillRemote,
        );
        return { type: 'remote_done', ...head };
      case 'remote_elicit':
        await backend.elicit(
          {
            session_id: req.session_id,
            elicitation_id: req.elicitation_id,
            action: req.action,
            ...(req.content !== undefined ? { content: req.content } : {}),
          },
          via,
          sender.stillRemote,
        );
        return { type: 'remote_done', ...head };
      case 'remote_read': {
        const read = await backend.read(
          req.session_id,
          req.limit ?? DEFAULT_REMOTE_READ,
          req.before_seq,
        );
        return { type: 'remote_conversation', ...head, session_id: req.session_id, ...read };
      }
      case 'remote_message': {
        const sent = await backend.message(req.session_id, req.text, via, sender.stillRemote);
        return { type: 'remote_done', ...head, message_id: sent.message_id };
      }
    }
  }

  private spend(deviceId: string, type: string): boolean {
    let b = this.budgets.get(deviceId);
    if (!b) {
      b = {
        requests: new TokenBucket(C.REMOTE_BURST, C.REMOTE_PER_SECOND, this.clock),
        actions: new TokenBucket(C.REMOTE_ACTION_BURST, C.REMOTE_ACTIONS_PER_SECOND, this.clock),
        messages: new TokenBucket(C.REMOTE_MESSAGE_BURST, C.REMOTE_MESSAGES_PER_SECOND, this.clock),
      };
      this.budgets.set(deviceId, b);
    }
    if (!b.requests.take()) return false;
    if (REMOTE_ACTION_TYPES.includes(type) && !b.actions.take()) return false;
    if (type === 'remote_message' && !b.messages.take()) return false;
    return true;
  }

  private schedulePush(): void {
    if (this.pushTimer) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = undefined;
      for (const conn of this.targets()) conn.send({ type: 'remote_changed', v: 1 });
    }, C.REMOTE_PUSH_MS);
  }

  /** Tells remote phones of each item a session newly waits on, unless a desktop window has focus. */
  private async notifyWaiting(sessionId: string): Promise<void> {
    const backend = this.backend;
    if (!backend) return;
    // Whether the user could see it start waiting is decided now, not after the log is read.
    const focused = this.focus.focused;
    let items: RemoteItem[];
    try {
      items = await backend.pending(sessionId);
    } catch {
      return;
    }
    for (const item of items) {
      const id = remoteItemId(item);
      const key = `${item.session_id}:${id}`;
      if (this.notified.has(key)) continue;
      this.notified.add(key);
      if (this.notified.size > MAX_NOTIFIED) {
        this.notified.delete(this.notified.values().next().value!);
      }
      // Seen on the desktop when it started waiting: the phone stays quiet about it.
      if (focused) continue;
      const frame: RemoteHostFrame = {
        type: 'remote_notify',
        v: 1,
        session_id: item.session_id,
        session_title: item.session_title,
        kind: item.kind,
        item_id: id,
        title:
          item.kind === 'approval'
            ? 'Mewbo needs your approval'
            : item.kind === 'question'
              ? 'Mewbo has a question for you'
              : `MCP server ${item.server} asks you`,
        body: (item.kind === 'approval'
          ? item.summary
          : item.kind === 'question'
            ? (item.questions[0]?.question ?? '')
            : item.message
        ).slice(0, 200),
      };
      for (const conn of this.targets()) conn.send(frame);
    }
  }
}

/** Cuts detail and arguments past the remote limit; such an approval can only be denied remotely. */
function clipItem(item: RemoteItem): RemoteItem {
  if (item.kind !== 'approval' || !tooLarge(item)) return item;
  return {
    ...item,
    detail: item.detail.slice(0, MAX_REMOTE_DETAIL_CHARS),
    args_json: item.args_json.slice(0, MAX_REMOTE_DETAIL_CHARS),
    truncated: true,
  };
}

/** Leaves out the newest items until the frame fits the 1 MiB frame limit; `total` keeps the count. */
function fitPending(frame: Extract<RemoteHostFrame, { type: 'remote_pending' }>): RemoteHostFrame {
  const budget = MAX_FRAME_BYTES - FRAME_SLACK;
  const kept: RemoteItem[] = [];
  let size = 0;
  for (const item of frame.items) {
    const bytes = Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
    if (size + bytes > budget) break;
    kept.push(item);
    size += bytes;
  }
  return { ...frame, items: kept };
}
