/**
 * What the board tells of a channel's recent calls (the admin API's success rate and p50): only
 * the last five minutes count, and a busy channel's figures are those of its latest calls.
 */
import { expect, it } from 'vitest';
import { ChannelBoard } from '../../src/providers/channel-board.js';

const MINUTE = 60_000;

it('counts the calls of the last five minutes: how many, the share that succeeded, the median time', () => {
  const board = new ChannelBoard([]);
  const now = 10 * MINUTE;
  board.observe('a', false, 900, now - 6 * MINUTE);
  for (const [ok, ms] of [
    [true, 40],
    [true, 10],
    [false, 5000],
    [true, 30],
    [true, 20],
  ] as const)
    board.observe('a', ok, ms, now - MINUTE);
  expect(board.recent('a', now)).toEqual({ calls: 5, success_rate: 0.8, p50_ms: 30 });
  expect(board.recent('b', now)).toEqual({ calls: 0, success_rate: null, p50_ms: null });
  expect(board.recent('a', now + 5 * MINUTE)).toEqual({ calls: 0, success_rate: null, p50_ms: null });
});

it("keeps a busy channel's latest calls", () => {
  const board = new ChannelBoard([]);
  const now = 10 * MINUTE;
  for (let i = 0; i < 5000; i += 1) board.observe('busy', true, 100, now - 1000);
  for (let i = 0; i < 4096; i += 1) board.observe('busy', i % 4 !== 0, 7, now);
  expect(board.recent('busy', now)).toEqual({ calls: 4096, success_rate: 0.75, p50_ms: 7 });
});
