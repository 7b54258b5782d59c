/**
 * Record ids that sort by time (milliseconds, then a counter, then this process's random mark
 * against collisions between nodes), so that new rows append to a table's index instead of
 * landing at random places in it, and the rows one process writes sort in the order it wrote
 * them, within a millisecond too (a ledger read in id order shows each balance after the one
 * before). The mark is drawn once: drawing randomness for every row cost more than writing it.
 */
import { randomBytes } from 'node:crypto';

const PROCESS_MARK = randomBytes(6).toString('hex');
let lastMs = 0;
let counter = 0;

export function recordId(now = Date.now()): string {
  // A clock that stepped back keeps counting from the last time, so order holds.
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else counter += 1;
  return `${lastMs.toString(36).padStart(9, '0')}${counter.toString(36).padStart(4, '0')}${PROCESS_MARK}`;
}
