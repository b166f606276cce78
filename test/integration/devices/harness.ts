import { join } from 'node:path';
import type { SessionEventBody } from '../../../shared/protocol/events';
import type { DeviceInfo, PairingOffer } from '../../../shared/device/api';
import type { Clock } from '../../../electron/host/devices/clock';
import { DevicesService } from '../../../electron/host/devices/devices-service';
import { FakePhone } from '../../helpers/fake-phone';
import { tempDir } from '../../helpers/temp';

// A real DevicesService on 127.0.0.1 (real TLS, real sockets) in a temp $MEWBO_HOME/state, and
// fake phones that pin its certificate.

export interface RecordedEvent {
  sessionId: string;
  event: SessionEventBody;
}

export class ManualClock implements Clock {
  constructor(public time = Date.now()) {}
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

export interface Harness {
  service: DevicesService;
  stateDir: string;
  events: RecordedEvent[];
  remembered: boolean[];
  offer: PairingOffer;
  socketUrl: string;
  connect(options?: { origin?: string; autoPong?: boolean }): Promise<FakePhone>;
  /** A phone paired with a fresh offer and attached, as the phone page leaves it. */
  pairedPhone(name?: string): Promise<{ phone: FakePhone; deviceId: string; token: string }>;
  dispose(): Promise<void>;
}

export interface HarnessOptions {
  clock?: Clock;
  callTimeoutMs?: number;
  heartbeatMs?: number;
  authDeadlineMs?: number;
  pageDir?: string;
  stateDir?: string;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const temp = tempDir('mewbo-devices-');
  const stateDir = options.stateDir ?? join(temp.dir, 'state');
  const events: RecordedEvent[] = [];
  const remembered: boolean[] = [];
  const service = await DevicesService.create({
    stateDir,
    config: { pairing_enabled: false, host: '127.0.0.1', port: 0 },
    emit: (sessionId, event) => {
      events.push({ sessionId, event });
    },
    rememberPairing: async (enabled) => {
      remembered.push(enabled);
    },
    clock: options.clock,
    callTimeoutMs: options.callTimeoutMs,
    heartbeatMs: options.heartbeatMs,
    authDeadlineMs: options.authDeadlineMs,
    pageDir: options.pageDir,
  });
  const offer = await service.createOffer();
  const socketUrl = `${offer.url.replace('https://', 'wss://')}ws`;
  const phones: FakePhone[] = [];
  const connect = async (opts: { origin?: string; autoPong?: boolean } = {}) => {
    const phone = await FakePhone.connect({
      url: socketUrl,
      fingerprint: offer.fingerprint,
      ...opts,
    });
    phones.push(phone);
    return phone;
  };
  return {
    service,
    stateDir,
    events,
    remembered,
    offer,
    socketUrl,
    connect,
    async pairedPhone(name = 'Test phone') {
      const { code } = await service.createOffer();
      const phone = await connect();
      const answer = await phone.pair(code, name);
      if (answer.type !== 'paired') throw new Error(`pairing failed: ${answer.message}`);
      return { phone, deviceId: answer.device_id, token: answer.token };
    },
    async dispose() {
      await Promise.all(phones.map((p) => p.close().catch(() => undefined)));
      await service.dispose();
      temp.cleanup();
    },
  };
}

export const TIME_TOOL = {
  tool_id: 'device_get_time',
  description: 'Returns the phone clock',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
};

export const ECHO_TOOL = {
  tool_id: 'device_echo',
  description: 'Echoes its text',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};

/** Resolves once the device list satisfies `done` (device changes are events, not acks). */
export function devicesUntil(
  service: DevicesService,
  done: (devices: DeviceInfo[]) => boolean,
  timeoutMs = 5000,
): Promise<void> {
  if (done(service.listDevices())) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error('the device list never reached the expected state'));
    }, timeoutMs);
    const sub = service.onDidChangeDevices((devices) => {
      if (!done(devices)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve();
    });
  });
}

/** The device is attached with `count` tools (a declaration is not acknowledged on the wire). */
export function declared(service: DevicesService, deviceId: string, count: number): Promise<void> {
  return devicesUntil(service, (list) =>
    list.some((d) => d.device_id === deviceId && d.attached && d.tools.length === count),
  );
}

export function detached(service: DevicesService, deviceId: string): Promise<void> {
  return devicesUntil(service, (list) => !list.some((d) => d.device_id === deviceId && d.attached));
}
