/**
 * Time-ordered UUIDs: version 7 with the RFC's variant, the millisecond readable from the first
 * 48 bits, sorting by time as text, and no repeats among many drawn in one millisecond.
 */
import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from '../../src/store/time-ordered-uuid.js';

const millisecondOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);

describe('time-ordered UUIDs', () => {
  it('are version 7 UUIDs with the RFC variant, laid out as RFC 9562’s example', () => {
    for (let i = 0; i < 1000; i += 1) {
      expect(timeOrderedUuid()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
    // RFC 9562, appendix A.6: 017F22E2-79B0-7CC3-98C4-DC0C0C07398F for Tuesday, February 22, 2022 2:22:22.00 PM GMT-05:00.
    const example = timeOrderedUuid(Date.parse('2022-02-22T19:22:22.000Z'));
    expect(example.slice(0, 15)).toBe('017f22e2-79b0-7');
  });

  it('carry their millisecond and sort by it as text', () => {
    const times = [0, 1, 1_700_000_000_000, Date.now(), 2 ** 48 - 1];
    const ids = times.map((t) => timeOrderedUuid(t));
    expect(ids.map(millisecondOf)).toEqual(times);
    expect([...ids].sort()).toEqual(ids);
  });

  it('never repeat, within one millisecond either, and spread their random bits', () => {
    const ids = Array.from({ length: 100_000 }, () => timeOrderedUuid(1_800_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    // Every hex digit of the random tail takes every value: the pool is refilled, not reused.
    const tail = ids.map((id) => id.slice(-12));
    for (let position = 0; position < 12; position += 1)
      expect(new Set(tail.map((t) => t[position])).size).toBe(16);
  });
});
