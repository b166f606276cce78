import type { AnyTool } from '../tools/tool';
import type { AcceptedTool } from './declaration';
import type { DeviceConnection } from './device-connection';

// Which devices are attached right now, what each offers, and which one serves a session.
//
// The two-phone rule: a session bound to a device (bindSessionDevice) is served by that device
// only; while it is away the session has no device tools. An unbound session is served by the
// device that attached most recently, so when a second phone connects it takes over unbound
// sessions from their next step. One phone may serve any number of sessions at once.

export interface AttachedDevice {
  deviceId: string;
  conn: DeviceConnection;
  tools: readonly AcceptedTool[];
  definitions: readonly AnyTool[];
  /** Attach order; the highest is the most recent. */
  order: number;
}

export class AttachedDevices {
  private readonly byId = new Map<string, AttachedDevice>();
  private readonly bindings = new Map<string, string>();
  private seq = 0;

  /** Attaches a socket; returns the entry it replaced (the same phone's previous socket), if any. */
  attach(deviceId: string, conn: DeviceConnection): AttachedDevice | undefined {
    const previous = this.byId.get(deviceId);
    this.seq += 1;
    // A new socket starts with no tools: the phone declares what it permits after each welcome.
    this.byId.set(deviceId, { deviceId, conn, tools: [], definitions: [], order: this.seq });
    return previous;
  }

  /** Detaches a socket if it is still the device's current one. */
  detach(conn: DeviceConnection): boolean {
    const id = conn.deviceId;
    const entry = id === undefined ? undefined : this.byId.get(id);
    if (!entry || entry.conn !== conn) return false;
    this.byId.delete(entry.deviceId);
    return true;
  }

  remove(deviceId: string): AttachedDevice | undefined {
    const entry = this.byId.get(deviceId);
    this.byId.delete(deviceId);
    for (const [sessionId, bound] of [...this.bindings]) {
      if (bound === deviceId) this.bindings.delete(sessionId);
    }
    return entry;
  }

  get(deviceId: string): AttachedDevice | undefined {
    return this.byId.get(deviceId);
  }

  /** The entry for a socket, if that socket is its device's current one. */
  forConnection(conn: DeviceConnection): AttachedDevice | undefined {
    const entry = conn.deviceId === undefined ? undefined : this.byId.get(conn.deviceId);
    return entry?.conn === conn ? entry : undefined;
  }

  setTools(
    entry: AttachedDevice,
    tools: readonly AcceptedTool[],
    definitions: readonly AnyTool[],
  ): void {
    entry.tools = tools;
    entry.definitions = definitions;
  }

  all(): AttachedDevice[] {
    return [...this.byId.values()];
  }

  servingFor(sessionId: string): AttachedDevice | undefined {
    const bound = this.bindings.get(sessionId);
    if (bound !== undefined) return this.byId.get(bound);
    let latest: AttachedDevice | undefined;
    for (const entry of this.byId.values())
      if (!latest || entry.order > latest.order) latest = entry;
    return latest;
  }

  bind(sessionId: string, deviceId: string | null): void {
    if (deviceId === null) this.bindings.delete(sessionId);
    else this.bindings.set(sessionId, deviceId);
  }

  boundTo(sessionId: string): string | null {
    return this.bindings.get(sessionId) ?? null;
  }

  forget(sessionId: string): void {
    this.bindings.delete(sessionId);
  }
}
