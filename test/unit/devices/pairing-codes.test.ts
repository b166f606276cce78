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

describe('one-time pairing codes: edges', () => {
  it('the code is valid until the last millisecond before expiry', () => {
    const clock = manual();
    const codes = new PairingCodes(clock, 1000);
    const { code, expires_at } = codes.issue();
    expect(expires_at).toBe(clock.time + 1000);
    clock.time += 999;
    expect(codes.consume(code)).toEqual({ ok: true, grant: { remote: false } });
  });

  it('an expired code stays expired (not burned) and a new offer replaces it', () => {
    const clock = manual();
    const codes = new PairingCodes(clock, 1000);
    const first = codes.issue().code;
    clock.time += 1000;
    expect(codes.consume(first)).toEqual({
      ok: false,
      code: 'expired_code',
      message: 'the pairing code expired: show a new one in the app',
    });
    const second = codes.issue().code;
    if (second !== first)
      expect(codes.consume(first)).toEqual({
        ok: false,
        code: 'bad_code',
        message: 'the pairing code is wrong',
      });
    expect(codes.consume(second)).toEqual({ ok: true, grant: { remote: false } });
  });

  it('wrong guesses below the budget leave the right code usable; the budget is exact', () => {
    const codes = new PairingCodes(manual());
    const { code } = codes.issue();
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < PAIR_CODE_MAX_FAILURES - 1; i++) codes.consume(wrong);
    expect(codes.consume(code)).toEqual({ ok: true, grant: { remote: false } });
  });

  it('a code that differs in length, or only in a later digit, is wrong', () => {
    const codes = new PairingCodes(manual());
    const { code } = codes.issue();
    expect(codes.consume(code + '0')).toMatchObject({ code: 'bad_code' });
    expect(codes.consume(code.slice(0, 5))).toMatchObject({ code: 'bad_code' });
    const last = code.slice(0, 5) + String((Number(code[5]) + 1) % 10);
    expect(codes.consume(last)).toMatchObject({ code: 'bad_code' });
    expect(codes.consume(code)).toEqual({ ok: true, grant: { remote: false } });
  });

  it('no active code: the message says to show a new one', () => {
    expect(new PairingCodes(manual()).consume('123456')).toEqual({
      ok: false,
      code: 'bad_code',
      message: 'no pairing code is active: show a new one in the app',
    });
  });
});

describe('one-time pairing codes: what they grant', () => {
  it('the phone pairing with a code gets what was chosen when it was issued, a copy of it', () => {
    const codes = new PairingCodes(manual());
    const chosen = { remote: true };
    const { code } = codes.issue(chosen);
    chosen.remote = false; // changing the dialog afterwards does not change the issued code
    expect(codes.consume(code)).toEqual({ ok: true, grant: { remote: true } });
    const next = codes.issue().code;
    expect(codes.consume(next)).toEqual({ ok: true, grant: { remote: false } });
  });
});
