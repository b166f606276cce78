import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../../electron/host/devices/rate-limiter';

describe('token bucket', () => {
  it('allows a burst, refuses past it, and refills with time', () => {
    const clock = {
      t: 0,
      now() {
        return this.t;
      },
    };
    const bucket = new TokenBucket(3, 2, clock);
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    clock.t += 500;
    expect([bucket.take(), bucket.take()]).toEqual([true, false]);
    clock.t += 60_000;
    expect([bucket.take(), bucket.take(), bucket.take(), bucket.take()]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('a cost larger than what is left is refused and takes nothing', () => {
    const clock = { now: () => 0 };
    const bucket = new TokenBucket(10, 1, clock);
    expect(bucket.take(11)).toBe(false);
    expect(bucket.take(10)).toBe(true);
  });
});

describe('token bucket: refill', () => {
  it('refills in proportion to the time passed and the rate, never past capacity', () => {
    const clock = { t: 0, now: () => clock.t };
    const bucket = new TokenBucket(10, 4, clock);
    expect(bucket.take(10)).toBe(true);
    clock.t += 250; // one token at 4 per second
    expect(bucket.take(2)).toBe(false);
    expect(bucket.take(1)).toBe(true);
    expect(bucket.take(1)).toBe(false);
    clock.t += 1_000_000;
    expect(bucket.take(10)).toBe(true);
    expect(bucket.take(1)).toBe(false);
  });

  it('a refused take does not lose the time that passed', () => {
    const clock = { t: 0, now: () => clock.t };
    const bucket = new TokenBucket(2, 1, clock);
    expect(bucket.take(2)).toBe(true);
    clock.t += 1000;
    expect(bucket.take(2)).toBe(false); // one token so far
    clock.t += 1000;
    expect(bucket.take(2)).toBe(true);
  });

  it('the default cost is one token', () => {
    const clock = { t: 0, now: () => clock.t };
    const bucket = new TokenBucket(2, 1, clock);
    expect(bucket.take()).toBe(true);
    expect(bucket.take(1)).toBe(true);
    expect(bucket.take()).toBe(false);
  });
});
