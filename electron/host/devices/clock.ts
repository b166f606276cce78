/** Wall time, injectable so tests can expire a pairing code without waiting five minutes. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
