import type { Clock } from './clock';

/** A token bucket: `capacity` for bursts, refilled at `perSecond`. One per connection per measure. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly clock: Clock,
  ) {
    this.tokens = capacity;
    this.last = clock.now();
  }

  /** Takes `cost` tokens if there are enough; false means over the limit (nothing is taken). */
  take(cost = 1): boolean {
    const now = this.clock.now();
    this.tokens = Math.min(
      this.capacity,
      this.tokens + ((now - this.last) / 1000) * this.perSecond,
    );
    this.last = now;
    if (this.tokens < cost) return false;
    this.tokens -= cost;
    return true;
  }
}
