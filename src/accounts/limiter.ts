/**
 * Per-token request rate (a token bucket holding one second of requests) and concurrency. This
 * is the in-process limiter; the interface is the port a shared (Redis) limiter implements for
 * several nodes.
 */
export interface Limiter {
  /** Takes one request from the token's bucket; answers 0, or the seconds until one is available. */
  take(tokenId: string, ratePerSecond: number): number;
  /** Takes one concurrency slot; answers its release, or null when all `max` are in use. */
  acquire(tokenId: string, max: number): (() => void) | null;
}

interface Bucket {
  level: number;
  at: number;
}

export class MemoryLimiter implements Limiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  take(tokenId: string, ratePerSecond: number): number {
    const capacity = Math.max(1, ratePerSecond);
    const now = this.now();
    const bucket = this.buckets.get(tokenId) ?? { level: capacity, at: now };
    bucket.level = Math.min(capacity, bucket.level + ((now - bucket.at) / 1000) * ratePerSecond);
    bucket.at = now;
    this.buckets.set(tokenId, bucket);
    if (bucket.level >= 1) {
      bucket.level -= 1;
      return 0;
    }
    return (1 - bucket.level) / ratePerSecond;
  }

  acquire(tokenId: string, max: number): (() => void) | null {
    const current = this.inFlight.get(tokenId) ?? 0;
    if (current >= max) return null;
    this.inFlight.set(tokenId, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(tokenId) ?? 1) - 1;
      if (left <= 0) this.inFlight.delete(tokenId);
      else this.inFlight.set(tokenId, left);
    };
  }
}
