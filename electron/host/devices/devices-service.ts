import { join } from 'node:path';
import type { DeviceInfo, PairingOffer, PairingStatus } from '../../../shared/device/api';
import type { AppConfig } from '../config/schema';
import { DisposableObject } from '../lifecycle/disposable';
import { Emitter, type Event } from '../lifecycle/emitter';
import { loadOrCreateCertificate, type ListenerCertificate } from './certificate';
import { systemClock, type Clock } from './clock';
import { DeviceHub, type EmitSessionEvent } from './device-hub';
import { DeviceStore } from './device-store';
import { lanAddress } from './lan-address';
import type { PairingListener } from './pairing-listener';
import { buildOffer } from './pairing-offer';
import PQueue from 'p-queue';

// Phone pairing as the app's command handlers use it: turn the LAN listener on and off
// (remembered), make a pairing offer, list, revoke, bind a session to a device. The DeviceHub
// (`hub`) is what sessions use for device tools.

export interface DevicesServiceOptions {
  /** $MEWBO_HOME/state: the devices file and the listener's certificate. */
  stateDir: string;
  config: AppConfig['devices'];
  emit: EmitSessionEvent;
  /** Persists devices.pairing_enabled (see rememberPairingInConfig). */
  rememberPairing(enabled: boolean): Promise<void>;
  /** The built phone page, dist/phone. */
  pageDir?: string;
  clock?: Clock;
  callTimeoutMs?: number;
  heartbeatMs?: number;
  /** How long a phone socket may stay unauthenticated (tests shorten it). */
  authDeadlineMs?: number;
  /** Where the LAN address comes from when config.host is "" (tests pin it). */
  lanAddress?: () => string | undefined;
}

/** A handler-facing failure with a machine-readable code. */
export class DeviceApiError extends Error {
  override name = 'DeviceApiError';
  constructor(
    readonly code: 'pairing_failed' | 'unknown_device',
    message: string,
  ) {
    super(message);
  }
}

export class DevicesService extends DisposableObject {
  private listener: PairingListener | undefined;
  private certificate: ListenerCertificate | undefined;
  private enabled: boolean;
  private lastError: string | null = null;
  private readonly transition = new PQueue({ concurrency: 1 });
  private readonly statusChanged = this.register(new Emitter<PairingStatus>());

  readonly onDidChangeStatus: Event<PairingStatus> = this.statusChanged.event;
  readonly onDidChangeDevices: Event<DeviceInfo[]>;

  private constructor(
    private readonly options: DevicesServiceOptions,
    private readonly deviceStore: DeviceStore,
    readonly hub: DeviceHub,
  ) {
    super();
    this.enabled = options.config.pairing_enabled;
    this.onDidChangeDevices = hub.onDidChangeDevices;
    // Disposed newest first: the listener closes, the hub settles its calls, then writes finish.
    this.register({ dispose: () => deviceStore.flush() });
    this.register(hub);
    this.register({ dispose: () => this.listener?.dispose() });
  }

  static async create(options: DevicesServiceOptions): Promise<DevicesService> {
    const store = await DeviceStore.open(join(options.stateDir, 'devices.json'));
    const hub = new DeviceHub({
      store,
      emit: options.emit,
      clock: options.clock ?? systemClock,
      callTimeoutMs: options.callTimeoutMs,
    });
    return new DevicesService(options, store, hub);
  }

  /** At app start: listens if pairing was left on. A failure is reported in the status, not thrown. */
  start(): Promise<PairingStatus> {
    return this.serialize(async () => {
      if (this.enabled) await this.listen().catch(() => undefined);
      return this.status();
    });
  }

  enablePairing(): Promise<PairingStatus> {
    return this.serialize(async () => {
      if (!this.enabled) {
        await this.options.rememberPairing(true);
        this.enabled = true;
      }
      await this.listen().catch(() => undefined);
      return this.emitStatus();
    });
  }

  /** Stops the listener: attached phones disconnect, no code stays valid. Pairings are kept. */
  disablePairing(): Promise<PairingStatus> {
    return this.serialize(async () => {
      if (this.enabled) {
        await this.options.rememberPairing(false);
        this.enabled = false;
      }
      this.hub.clearCode();
      const listener = this.listener;
      this.listener = undefined;
      await listener?.dispose();
      return this.emitStatus();
    });
  }

  status(): PairingStatus {
    return {
      enabled: this.enabled,
      listening: this.listener !== undefined,
      url: this.listener?.url ?? null,
      fingerprint: this.certificate?.fingerprint ?? null,
      error: this.listener ? null : this.lastError,
    };
  }

  /**
   * A fresh one-time code as an offer (QR code, the code as text, URL, fingerprint). Asking for
   * one is the user pairing a phone, so it turns pairing on if it was off.
   */
  async createOffer(grant: { remote: boolean } = { remote: false }): Promise<PairingOffer> {
    const status = await this.enablePairing();
    const listener = this.listener;
    if (!listener || !this.certificate) {
      throw new DeviceApiError(
        'pairing_failed',
        `the pairing listener is not running: ${status.error ?? 'unknown error'}`,
      );
    }
    const { code, expires_at } = this.hub.issueCode(grant);
    return buildOffer({
      url: listener.url,
      code,
      fingerprint: this.certificate.fingerprint,
      expires_at,
    });
  }

  listDevices(): DeviceInfo[] {
    return this.hub.listDevices();
  }

  async revoke(deviceId: string): Promise<{ revoked: boolean }> {
    return { revoked: await this.hub.revoke(deviceId) };
  }

  /** Grants or takes away a device's remote and screen-control rights (PROTOCOL.md "Rights"). */
  async setRights(
    deviceId: string,
    change: { remote?: boolean; screen_control?: boolean },
  ): Promise<{ device: DeviceInfo }> {
    const device = await this.hub.setRights(deviceId, change);
    if (!device) throw new DeviceApiError('unknown_device', `no paired device has id ${deviceId}`);
    return { device };
  }

  /** A desktop window gained or lost focus. */
  reportFocus(clientId: string, focused: boolean): void {
    this.hub.focus.report(clientId, focused);
  }

  /** deviceId null unbinds: the session goes back to the most recently attached device. */
  bindSessionDevice(
    sessionId: string,
    deviceId: string | null,
  ): { bound: string | null; serving: string | null } {
    if (deviceId !== null && !this.deviceStore.get(deviceId)) {
      throw new DeviceApiError('unknown_device', `no paired device has id ${deviceId}`);
    }
    this.hub.bindSessionDevice(sessionId, deviceId);
    return this.hub.sessionDevice(sessionId);
  }

  private async listen(): Promise<void> {
    if (this.listener) return;
    const { config } = this.options;
    const host = config.host || (this.options.lanAddress ?? lanAddress)() || '127.0.0.1';
    try {
      this.certificate ??= await loadOrCreateCertificate(this.options.stateDir, [host]);
      const remembered = config.port === 0 ? this.deviceStore.listenPort : null;
      // Loaded when pairing is on, not with the host: the TLS server, the phone's frames and their
      // schemas are for a phone, and every idle host held them (issue #26 part 4).
      const { PairingListener } = await import('./pairing-listener');
      const open = (port: number) =>
        PairingListener.listen({
          host,
          port,
          certificate: this.certificate!,
          handler: this.hub,
          clock: this.options.clock ?? systemClock,
          pageDir: this.options.pageDir,
          heartbeatMs: this.options.heartbeatMs,
          authDeadlineMs: this.options.authDeadlineMs,
        });
      // A remembered port someone else took: a new port (phones using the page pair again).
      this.listener = remembered
        ? await open(remembered).catch(() => open(0))
        : await open(config.port);
      if (config.port === 0) await this.deviceStore.setListenPort(this.listener.port);
      this.lastError = null;
    } catch (err) {
      this.lastError = (err as Error).message;
      throw err;
    }
  }

  private emitStatus(): PairingStatus {
    const status = this.status();
    this.statusChanged.fire(status);
    return status;
  }

  /** Turning on and off are serialized, so a double click cannot open two listeners. */
  private serialize<T>(step: () => Promise<T>): Promise<T> {
    return this.transition.add(step);
  }
}
