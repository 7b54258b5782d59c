/**
 * UUIDs that sort by time (RFC 9562 version 7: the millisecond in the first 48 bits, then 74
 * random bits), for the ids that rows are keyed and indexed by: tasks, trace ids (usage rows,
 * holds), deliveries. A random (version 4) key lands each insert on a random page of its index,
 * so a commit of a few rows wrote as many pages; in time order they append to the last page. On
 * this storage 150 000 rows keyed both ways cost 45 µs of CPU each with random keys against 24 in
 * time order (better-sqlite3, WAL, 16 rows a transaction). The ids stay UUIDs, as the interface
 * says; what they add is their creation time, which the task says anyway.
 */
import { randomFillSync } from 'node:crypto';

/** Random bytes drawn in blocks: a draw per id would cost more than the rest of it. */
const pool = Buffer.alloc(4096);
let used = pool.length;
const BYTES_PER_ID = 10;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

export function timeOrderedUuid(now = Date.now()): string {
  if (used + BYTES_PER_ID > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const at = used;
  used += BYTES_PER_ID;
  const hex = (i: number) => HEX[pool[at + i]!]!;
  const time = now.toString(16).padStart(12, '0');
  // Version 7 in the 13th digit, the RFC's variant (binary 10) in the top bits of the 17th.
  return (
    `${time.slice(0, 8)}-${time.slice(8, 12)}-7${hex(0).slice(1)}${hex(1)}-` +
    `${HEX[(pool[at + 2]! & 0x3f) | 0x80]}${hex(3)}-${hex(4)}${hex(5)}${hex(6)}${hex(7)}${hex(8)}${hex(9)}`
  );
}
