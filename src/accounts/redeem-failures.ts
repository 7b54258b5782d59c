/**
 * Failed redemptions counted per token over the last minute: past ten, the token's next
 * attempts are refused (429) until the oldest failure is a minute old, so that codes cannot be
 * guessed by trying. Counted in this process: each node of a cluster allows its own ten, which
 * still leaves guessing a code of 100 random bits hopeless.
 */
import { ServiceError } from '../errors.js';

const WINDOW_MS = 60_000;
const ALLOWED = 10;
/** Tokens followed at most; past it the oldest are forgotten. */
const TOKENS = 10_000;

export class RedeemFailures {
  private readonly failures = new Map<string, number[]>();

  /** Throws 429 when the token failed more than it may in the last minute. */
  check(tokenId: string, now = Date.now()): void {
    const recent = this.recent(tokenId, now);
    if (recent.length < ALLOWED) return;
    const retryAfter = Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000));
    throw new ServiceError('too_many_requests', `more than ${ALLOWED} failed redemptions a minute`, {
      retryAfter,
    });
  }

  failed(tokenId: string, now = Date.now()): void {
    const recent = this.recent(tokenId, now);
    recent.push(now);
    this.failures.delete(tokenId);
    this.failures.set(tokenId, recent);
    if (this.failures.size > TOKENS) this.failures.delete(this.failures.keys().next().value!);
  }

  private recent(tokenId: string, now: number): number[] {
    return (this.failures.get(tokenId) ?? []).filter((at) => at > now - WINDOW_MS);
  }
}
