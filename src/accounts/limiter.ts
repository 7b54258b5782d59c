/**
 * Per-token request rate (a token bucket holding one second of requests) and concurrency. The
 * in-process limiter serves one node; `RedisLimiter` implements the same port across nodes.
 */
export interface Limiter {
  /** Takes one request from the token's bucket; answers 0, or the seconds until one is available. */
  take(tokenId: string, ratePerSecond: number): Promise<number>;
  /** Takes one concurrency slot; answers its release, or null when all `max` are in use. */
  acquire(tokenId: string, max: number): Promise<(() => void) | null>;
  close(): Promise<void>;
}

interface Bucket {
  level: number;
  at: number;
}

/** Refills `bucket` for the time since it was last used and takes one request if it can. */
function takeFromBucket(bucket: Bucket, ratePerSecond: number, now: number): number {
  const capacity = Math.max(1, ratePerSecond);
  bucket.level = Math.min(capacity, bucket.level + ((now - bucket.at) / 1000) * ratePerSecond);
  bucket.at = now;
  if (bucket.level >= 1) {
    bucket.level -= 1;
    return 0;
  }
  return (1 - bucket.level) / ratePerSecond;
}

export class MemoryLimiter implements Limiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  async take(tokenId: string, ratePerSecond: number): Promise<number> {
    const now = this.now();
    let bucket = this.buckets.get(tokenId);
    if (!bucket) {
      bucket = { level: Math.max(1, ratePerSecond), at: now };
      this.buckets.set(tokenId, bucket);
    }
    return takeFromBucket(bucket, ratePerSecond, now);
  }

  async acquire(tokenId: string, max: number): Promise<(() => void) | null> {
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

  async close(): Promise<void> {}
}
