import { describe, expect, it } from 'vitest';
import { PairingCodes } from '../../../electron/host/devices/pairing-codes';
import { PAIR_CODE_MAX_FAILURES, PAIR_CODE_TTL_MS } from '../../../electron/host/devices/constants';

function manual(time = 1_000_000) {
  return {
    time,
    now() {
      return this.time;
    },
  };
}

describe('one-time pairing codes', () => {
  it('a code is six digits, valid five minutes, and usable once', () => {
    const clock = manual();
    const codes = new PairingCodes(clock);
    const { code, expires_at } = codes.issue();
    expect(code).toMatch(/^\d{6}$/);
    expect(expires_at).toBe(clock.time + PAIR_CODE_TTL_MS);
    expect(codes.consume(code)).toEqual({ ok: true, grant: { remote: false } });
    expect(codes.consume(code)).toMatchObject({ ok: false, code: 'bad_code' });
  });

  it('an expired code says expired_code, even when tried again', () => {
    const clock = manual();
    const codes = new PairingCodes(clock);
    const { code } = codes.issue();
    clock.time += PAIR_CODE_TTL_MS;
    expect(codes.consume(code)).toMatchObject({ ok: false, code: 'expired_code' });
    expect(codes.consume(code)).toMatchObject({ ok: false, code: 'expired_code' });
  });

  it('too many wrong guesses burn the code', () => {
    const codes = new PairingCodes(manual());
    const { code } = codes.issue();
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < PAIR_CODE_MAX_FAILURES; i++)
      expect(codes.consume(wrong)).toMatchObject({ code: 'bad_code' });
    expect(codes.consume(code)).toMatchObject({ ok: false, code: 'bad_code' });
  });

  it('with no code issued, or after clear, every code is bad', () => {
    const codes = new PairingCodes(manual());
    expect(codes.consume('123456')).toMatchObject({ ok: false, code: 'bad_code' });
    const { code } = codes.issue();
    codes.clear();
    expect(codes.consume(code)).toMatchObject({ ok: false, code: 'bad_code' });
  });
});
