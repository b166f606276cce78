import { afterEach, describe, expect, it } from 'vitest';
import { MAX_CONNECTIONS } from '../../../electron/host/devices/constants';
import { startHarness, type Harness } from '../../integration/devices/harness';
import type { FakePhone } from '../../helpers/fake-phone';

// Route 11 of the trust boundary, the LAN side: anyone on the network can open sockets to the
// pairing listener. Idle, unauthenticated ones must not hold the MAX_CONNECTIONS slots and lock
// the user's phone out. The real listener (TLS, WebSocket); the deadline is injected short.

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function fill(harness: Harness): Promise<FakePhone[]> {
  const idle: FakePhone[] = [];
  for (let i = 0; i < MAX_CONNECTIONS; i++) idle.push(await harness.connect());
  return idle;
}

describe('idle unauthenticated phone sockets', () => {
  it("without an auth deadline, idle sockets fill the cap and the user's phone is refused", async () => {
    h = await startHarness({ authDeadlineMs: 60 * 60_000 });
    await fill(h);
    await expect(h.connect()).rejects.toThrow(/HTTP 503/);
  });

  it("with one, each idle socket is closed (1008) and the user's phone pairs afterwards", async () => {
    h = await startHarness({ authDeadlineMs: 300 });
    const idle = await fill(h);
    const closes = await Promise.all(idle.map((p) => p.closed));
    expect(closes.every((c) => c.code === 1008)).toBe(true);
    const { deviceId } = await h.pairedPhone('My phone');
    expect(deviceId).toMatch(/^dev_/);
  });
});
