import { LineIndexCache } from '../fs/line-index';

// Per-session memory of read_file: which exact slices of which file versions the model already
// holds (so a repeated read costs nothing), and the line indexes of files read so far. One object
// per session, passed in ToolServices.readState; nothing here is global.

/** Slices remembered per session before the oldest is forgotten (then re-read in full). */
const SEEN_SLICES_MAX = 2048;

export interface ReadStateOptions {
  /**
   * Whether repeated reads are deduplicated. Off where the caller's context is unknown (the MCP
   * server: its client may have compacted the earlier result away).
   */
  dedup: boolean;
}

export class ReadState {
  readonly lineIndexes = new LineIndexCache();
  /** Each slice's file version when returned, and the call that returned it. */
  private readonly seen = new Map<string, { version: string; callId?: string }>();
  /** The slice each call returned (the latest SEEN_SLICES_MAX calls). */
  private readonly byCall = new Map<string, string>();
  /** Reads whose result is not yet recorded, by call id. */
  private readonly pending = new Map<string, { key: string; version: string }>();

  constructor(readonly options: ReadStateOptions = { dedup: true }) {}

  private key(path: string, offset: number, limit: number): string {
    return `${path}\0${offset}\0${limit}`;
  }

  /** True when this slice of this version of the file was already returned in full. */
  alreadyRead(path: string, offset: number, limit: number, version: string): boolean {
    return this.options.dedup && this.seen.get(this.key(path, offset, limit))?.version === version;
  }

  /**
   * Records a slice as read. With a `callId` (the agent's calls) the record only counts once
   * `confirm(callId)` says the result was recorded in the conversation: a read whose result never
   * reached the model (the run was stopped, the host died) must not be answered "already read".
   */
  markRead(path: string, offset: number, limit: number, version: string, callId?: string): void {
    const key = this.key(path, offset, limit);
    if (callId !== undefined) {
      this.pending.set(callId, { key, version });
      return;
    }
    this.commit(key, version);
  }

  /** The call's result is now in the model's context: its read counts from here on. */
  confirm(callId: string): void {
    const p = this.pending.get(callId);
    if (!p) return;
    this.pending.delete(callId);
    this.commit(p.key, p.version, callId);
  }

  /**
   * That call's result left the model's context (an old image left out of a request for a note
   * telling the model to read the file again): its slice is read in full next time.
   */
  forgetCall(callId: string): void {
    const key = this.byCall.get(callId);
    if (key !== undefined && this.seen.get(key)?.callId === callId) this.seen.delete(key);
    this.byCall.delete(callId);
  }

  private commit(key: string, version: string, callId?: string): void {
    this.seen.delete(key);
    this.seen.set(key, { version, ...(callId !== undefined ? { callId } : {}) });
    if (callId !== undefined) this.byCall.set(callId, key);
    while (this.seen.size > SEEN_SLICES_MAX)
      this.seen.delete(this.seen.keys().next().value as string);
    while (this.byCall.size > SEEN_SLICES_MAX)
      this.byCall.delete(this.byCall.keys().next().value as string);
  }

  /** The model's context lost earlier results (compaction, a new conversation): re-read everything. */
  forgetReads(): void {
    this.seen.clear();
    this.pending.clear();
    this.byCall.clear();
  }
}
