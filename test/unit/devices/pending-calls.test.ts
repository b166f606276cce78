import { afterEach, describe, expect, it } from 'vitest';
import { PendingCalls } from '../../../electron/host/devices/pending-calls';
import { SETTLED_CALL_MEMORY_MAX } from '../../../electron/host/devices/constants';

const clock = { now: () => Date.now() };
let calls: PendingCalls;
afterEach(() => calls.dispose());

function result(callId: string, callToken: string, value: unknown = 'v') {
  return {
    type: 'device_tool_result' as const,
    call_id: callId,
    call_token: callToken,
    status: 'ok' as const,
    result: value,
  };
}

describe('pending device calls', () => {
  it('each call gets a distinct id and single-use token, expiring after the timeout', () => {
    calls = new PendingCalls(clock, 30_000);
    const a = calls.open('dev_a');
    const b = calls.open('dev_a');
    expect(a.callId).not.toBe(b.callId);
    expect(a.callToken).not.toBe(b.callToken);
    expect(a.expiresAt - Date.now()).toBeGreaterThan(29_000);
  });

  it('the first valid result wins; a repeat is 409 and changes nothing', async () => {
    calls = new PendingCalls(clock, 30_000);
    const call = calls.open('dev_a');
    expect(calls.deliver('dev_a', result(call.callId, call.callToken, 'first'))).toBe(200);
    expect(calls.deliver('dev_a', result(call.callId, call.callToken, 'second'))).toBe(409);
    expect(await call.outcome).toEqual({ status: 'ok', result: 'first' });
  });

  it('a wrong token or another device is 403 and the call still waits', async () => {
    calls = new PendingCalls(clock, 30_000);
    const call = calls.open('dev_a');
    expect(calls.deliver('dev_a', result(call.callId, 'wrong'))).toBe(403);
    expect(calls.deliver('dev_b', result(call.callId, call.callToken))).toBe(403);
    expect(calls.size).toBe(1);
    expect(calls.deliver('dev_a', result(call.callId, call.callToken))).toBe(200);
    // After delivery a wrong token is still refused as a token mismatch, not a duplicate.
    expect(calls.deliver('dev_a', result(call.callId, 'wrong'))).toBe(403);
  });

  it('an unknown call is 404, and so is a call that timed out', async () => {
    calls = new PendingCalls(clock, 20);
    expect(calls.deliver('dev_a', result('dc_none', 'x'))).toBe(404);
    const call = calls.open('dev_a');
    expect(await call.outcome).toMatchObject({ status: 'failed', code: 'device_timeout' });
    expect(calls.deliver('dev_a', result(call.callId, call.callToken))).toBe(404);
  });

  it('revoking a device fails only its calls, as device_unavailable', async () => {
    calls = new PendingCalls(clock, 30_000);
    const mine = calls.open('dev_a');
    const other = calls.open('dev_b');
    calls.failDevice('dev_a', 'revoked');
    expect(await mine.outcome).toMatchObject({ status: 'failed', code: 'device_unavailable' });
    expect(calls.size).toBe(1);
    expect(calls.deliver('dev_b', result(other.callId, other.callToken))).toBe(200);
  });

  it('remembers a bounded number of settled calls', () => {
    calls = new PendingCalls(clock, 30_000);
    const first = calls.open('dev_a');
    calls.deliver('dev_a', result(first.callId, first.callToken));
    for (let i = 0; i < SETTLED_CALL_MEMORY_MAX + 10; i++) {
      const c = calls.open('dev_a');
      calls.deliver('dev_a', result(c.callId, c.callToken));
    }
    // The oldest tombstone was evicted: its late duplicate is now "unknown" (404), not 409.
    expect(calls.deliver('dev_a', result(first.callId, first.callToken))).toBe(404);
  });
});
