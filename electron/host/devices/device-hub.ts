import type { DeviceInfo } from '../../../shared/device/api';
import type { ResultFrame, ResultAckCode } from '../../../shared/device/frames';
import type { SessionEventBody } from '../../../shared/protocol/events';
import { errorPayload, type ToolPayload } from '../../../shared/tools/payload';
import { DisposableObject } from '../lifecycle/disposable';
import { Emitter, type Event } from '../lifecycle/emitter';
import type { AnyTool } from '../tools/tool';
import { AttachedDevices } from './attached-devices';
import { systemClock, type Clock } from './clock';
import { CLOSE_CODES, DEVICE_CALL_TIMEOUT_MS, LAST_SEEN_PERSIST_MS } from './constants';
import { checkDeclaration } from './declaration';
import type {
  AuthResult,
  ConnectionHandler,
  DeviceConnection,
  PairResult,
} from './device-connection';
import type { DeviceStore } from './device-store';
import { deviceToolDefinition, isScreenTool } from './device-tool';
import { DesktopFocus } from './desktop-focus';
import { RemoteDesk } from './remote-desk';
import type { RemoteBackend } from './remote-backend';
import type { Disposable } from '../lifecycle/disposable';
import type { DeviceRights } from '../../../shared/device/remote-frames';
import { PairingCodes } from './pairing-codes';
import { PendingCalls } from './pending-calls';
import { payloadOf, resultEvent } from './call-outcome';

/** Appends an event to a session's log; the session store owns durability. */
export type EmitSessionEvent = (sessionId: string, event: SessionEventBody) => void | Promise<void>;

export interface DeviceHubOptions {
  store: DeviceStore;
  emit: EmitSessionEvent;
  clock?: Clock;
  /** Tests shorten the 30 s wait; production keeps the seed's number. */
  callTimeoutMs?: number;
}

/**
 * The devices as the rest of the host sees them: which are attached, the tools a session may
 * bind, and calls to them. Also the handler behind every device socket (pairing, declarations,
 * results). One per app; the pairing listener feeds it connections.
 */
export class DeviceHub extends DisposableObject implements ConnectionHandler {
  private readonly clock: Clock;
  private readonly attached = new AttachedDevices();
  private readonly calls: PendingCalls;
  private readonly codes: PairingCodes;
  private readonly changed = this.register(new Emitter<DeviceInfo[]>());
  private lastSeenSaved = 0;
  /** Which desktop windows have focus: phones are notified only while none has. */
  readonly focus: DesktopFocus;
  private readonly remoteDesk: RemoteDesk;

  /** Fires with the whole list whenever a device pairs, attaches, leaves, declares or is revoked. */
  readonly onDidChangeDevices: Event<DeviceInfo[]> = this.changed.event;

  constructor(private readonly options: DeviceHubOptions) {
    super();
    this.clock = options.clock ?? systemClock;
    this.codes = new PairingCodes(this.clock);
    this.calls = this.register(
      new PendingCalls(this.clock, options.callTimeoutMs ?? DEVICE_CALL_TIMEOUT_MS),
    );
    this.focus = new DesktopFocus(this.clock);
    this.remoteDesk = this.register(
      new RemoteDesk(this.clock, this.focus, () =>
        this.attached
          .all()
          .filter((e) => this.options.store.get(e.deviceId)?.remote)
          .map((e) => e.conn),
      ),
    );
  }

  /** The sessions a phone with remote rights reaches (set once the agent exists). */
  setRemoteBackend(backend: RemoteBackend): Disposable {
    return this.remoteDesk.setBackend(backend);
  }

  // ---- for the host: sessions, binding, calls ----

  /** The device tools a session may bind now: none in headless runs or with no device attached. */
  toolsFor(sessionId: string, opts: { headless?: boolean } = {}): AnyTool[] {
    if (opts.headless) return [];
    const device = this.attached.servingFor(sessionId);
    if (!device) return [];
    // The screen-control gate: device_screen_* only while the user has it on for this device.
    const screen = this.screenControl(device.deviceId);
    return device.definitions.filter((t) => screen || !isScreenTool(t.name));
  }

  private screenControl(deviceId: string): boolean {
    return this.options.store.get(deviceId)?.screen_control === true;
  }

  /** Runs a device tool for a session and returns its payload; failures are error payloads. */
  async call(
    sessionId: string,
    toolId: string,
    args: unknown,
    signal?: AbortSignal,
  ): Promise<ToolPayload> {
    const device = this.attached.servingFor(sessionId);
    if (!device) {
      return errorPayload(
        'device_unavailable',
        'no device is attached to this session: open the phone page or pair a phone',
      );
    }
    const tool = device.tools.find((t) => t.tool_id === toolId);
    if (!tool) {
      return errorPayload(
        'device_unavailable',
        `the attached device does not offer ${toolId} now`,
        { device_id: device.deviceId },
      );
    }
    // A model that remembered the tool from before the gate closed still cannot reach the screen.
    if (isScreenTool(toolId) && !this.screenControl(device.deviceId)) {
      return errorPayload(
        'screen_control_off',
        `screen control is off for this phone: the user turns it on in the Pair phone dialog`,
        { device_id: device.deviceId },
      );
    }
    const parsed = tool.schema.safeParse(args ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return errorPayload(
        'invalid_args',
        `${toolId}: ${issue?.path.join('.') || 'args'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    const deviceId = device.deviceId;
    const opened = this.calls.open(deviceId);
    await this.record(sessionId, {
      type: 'device_tool_call',
      call_id: opened.callId,
      device_id: deviceId,
      tool_id: toolId,
      args: parsed.data,
    });
    const onAbort = () => this.calls.fail(opened.callId, 'aborted', 'the run was stopped');
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    // While the event was written the run may have stopped, or the phone left or reconnected.
    if (this.calls.isPending(opened.callId)) {
      const current = this.attached.get(deviceId);
      if (current) {
        current.conn.send({
          type: 'device_tool_call',
          call_id: opened.callId,
          call_token: opened.callToken,
          tool_id: toolId,
          args: parsed.data,
          expires_at: opened.expiresAt,
        });
      } else {
        this.calls.fail(
          opened.callId,
          'device_unavailable',
          'the device left before the call was sent',
        );
      }
    }
    const outcome = await opened.outcome;
    signal?.removeEventListener('abort', onAbort);
    await this.record(sessionId, resultEvent(opened.callId, deviceId, outcome));
    return payloadOf(outcome, deviceId, toolId);
  }

  bindSessionDevice(sessionId: string, deviceId: string | null): void {
    if (deviceId !== null && !this.options.store.get(deviceId)) {
      throw new Error(`no paired device has id ${deviceId}`);
    }
    this.attached.bind(sessionId, deviceId);
  }

  /** The device a session is bound to (null: unbound) and the one serving it now (null: none). */
  sessionDevice(sessionId: string): { bound: string | null; serving: string | null } {
    return {
      bound: this.attached.boundTo(sessionId),
      serving: this.attached.servingFor(sessionId)?.deviceId ?? null,
    };
  }

  forgetSession(sessionId: string): void {
    this.attached.forget(sessionId);
  }

  listDevices(): DeviceInfo[] {
    return this.options.store.list().map((record) => {
      const live = this.attached.get(record.device_id);
      return {
        device_id: record.device_id,
        name: record.name,
        paired_at: record.paired_at,
        last_seen: record.last_seen,
        attached: live !== undefined,
        tools: live
          ? live.tools.map(({ tool_id, description }) => ({ tool_id, description }))
          : record.tools,
        remote: record.remote,
        screen_control: record.screen_control,
      };
    });
  }

  /** Removes a device at once: its socket closes, its calls fail, its token stops working. */
  async revoke(deviceId: string): Promise<boolean> {
    const live = this.attached.remove(deviceId);
    const removed = await this.options.store.remove(deviceId);
    if (live) {
      live.conn.sendError(
        'revoked',
        'this device was removed on the desktop: pair again to use it',
      );
      live.conn.close(CLOSE_CODES.revoked, 'revoked');
    }
    this.calls.failDevice(deviceId, 'the device was revoked');
    this.remoteDesk.forget(deviceId);
    if (removed || live) this.fireChanged();
    return removed;
  }

  /**
   * Changes a device's rights at once. The attached phone is told (a `rights` frame); taking the
   * remote right away also closes its socket (4005), so nothing it had open survives the change.
   * Undefined when no such device is paired.
   */
  async setRights(
    deviceId: string,
    change: { remote?: boolean; screen_control?: boolean },
  ): Promise<DeviceInfo | undefined> {
    const before = this.options.store.get(deviceId);
    if (!before) return undefined;
    const hadRemote = before.remote;
    const record = await this.options.store.setRights(deviceId, change);
    if (!record) return undefined;
    const live = this.attached.get(deviceId);
    if (live) {
      live.conn.send({ type: 'rights', rights: rightsOf(record) });
      if (hadRemote && !record.remote) {
        live.conn.close(CLOSE_CODES.rightsChanged, 'rights_changed');
      }
    }
    this.fireChanged();
    return this.listDevices().find((d) => d.device_id === deviceId);
  }

  /** A new one-time pairing code (replacing any previous one); `remote`: the phone pairing gets it. */
  issueCode(grant: { remote: boolean } = { remote: false }): { code: string; expires_at: number } {
    return this.codes.issue(grant);
  }

  clearCode(): void {
    this.codes.clear();
  }

  get pendingCallCount(): number {
    return this.calls.size;
  }

  // ---- ConnectionHandler: what device sockets ask of the hub ----

  async pair(code: string, deviceName: string): Promise<PairResult> {
    const check = this.codes.consume(code);
    if (!check.ok) return check;
    const { record, token } = await this.options.store.add(
      deviceName,
      this.clock.now(),
      check.grant,
    );
    return { ok: true, deviceId: record.device_id, token, rights: rightsOf(record) };
  }

  authenticate(deviceId: string, token: string): AuthResult {
    const record = this.options.store.authenticate(deviceId, token);
    return record
      ? { ok: true, deviceId, rights: rightsOf(record) }
      : {
          ok: false,
          code: 'bad_token',
          message: 'unknown device or revoked token: pair this device again',
        };
  }

  attach(conn: DeviceConnection): void {
    const deviceId = conn.deviceId!;
    const previous = this.attached.attach(deviceId, conn);
    if (previous && previous.conn !== conn) {
      previous.conn.sendError('replaced', 'this device connected again on another socket');
      previous.conn.close(CLOSE_CODES.replaced, 'replaced');
    }
    this.persistSeen(deviceId, true);
    this.fireChanged();
  }

  declare(conn: DeviceConnection, entries: readonly unknown[]): string | undefined {
    const entry = this.attached.forConnection(conn);
    if (!entry) return 'this connection no longer speaks for its device';
    const check = checkDeclaration(entries);
    if (!check.ok) return check.reason;
    this.attached.setTools(
      entry,
      check.tools,
      check.tools.map((t) => deviceToolDefinition(t, this)),
    );
    this.options.store.setTools(
      entry.deviceId,
      check.tools.map(({ tool_id, description }) => ({ tool_id, description })),
    );
    // Not written now: a phone may redeclare often (permissions), and detach writes it anyway.
    this.persistSeen(entry.deviceId, false);
    this.fireChanged();
    return undefined;
  }

  result(conn: DeviceConnection, frame: ResultFrame): ResultAckCode {
    return this.calls.deliver(conn.deviceId!, frame);
  }

  remote(conn: DeviceConnection, frame: unknown): 'ok' | 'malformed' {
    const entry = this.attached.forConnection(conn);
    const record = entry ? this.options.store.get(entry.deviceId) : undefined;
    return this.remoteDesk.handle(
      conn,
      {
        deviceId: conn.deviceId!,
        name: record?.name ?? 'phone',
        // Read per frame from the store: a right taken away holds from the next frame on.
        remote: record?.remote === true,
        // And again before acting, for a request in flight when it was taken away.
        stillRemote: () =>
          this.attached.forConnection(conn) !== undefined &&
          this.options.store.get(conn.deviceId!)?.remote === true,
      },
      frame,
    );
  }

  seen(conn: DeviceConnection): void {
    if (conn.deviceId) this.persistSeen(conn.deviceId, false);
  }

  closed(conn: DeviceConnection): void {
    if (!this.attached.detach(conn)) return;
    this.persistSeen(conn.deviceId!, true);
    this.fireChanged();
  }

  // ---- internals ----

  private persistSeen(deviceId: string, now: boolean): void {
    const at = this.clock.now();
    this.options.store.touch(deviceId, at);
    if (!now && at - this.lastSeenSaved < LAST_SEEN_PERSIST_MS) return;
    this.lastSeenSaved = at;
    // Logged by the store; last_seen is advisory and must not fail a frame.
    this.options.store.save().catch(() => undefined);
  }

  private fireChanged(): void {
    this.changed.fire(this.listDevices());
  }

  private async record(sessionId: string, event: SessionEventBody): Promise<void> {
    try {
      await this.options.emit(sessionId, event);
    } catch (err) {
      // The session log reports its own failures; a device call must not die of one.
      console.error(`devices: could not record ${event.type} in ${sessionId}`, err);
    }
  }
}

function rightsOf(record: { remote: boolean; screen_control: boolean }): DeviceRights {
  return { remote: record.remote, screen_control: record.screen_control };
}
