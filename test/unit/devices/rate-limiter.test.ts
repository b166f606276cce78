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
