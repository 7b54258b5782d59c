/**
 * Ids of results derived from their task: a task that runs again after its worker died makes
 * the same items under the same ids, so nothing is stored or delivered twice.
 */
import { createHash } from 'node:crypto';

/** A UUID (version 4 layout) from a digest of `text`. */
export function stableUuid(text: string): string {
  const hex = createHash('sha256').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A seed in [0, 2^31) from a digest of `text`. */
export function stableSeed(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32LE(0) & 0x7fffffff;
}
