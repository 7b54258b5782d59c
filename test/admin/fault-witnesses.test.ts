/**
 * The tokens whose calls found a channel's account at fault: one token is one witness however
 * many calls it makes, a witness counts for the window only, and each channel counts its own.
 */
import { expect, it } from 'vitest';
import { FaultWitnesses } from '../../src/watchers/fault-witnesses.js';

it('answers once enough different tokens saw the fault within the window, then starts afresh', () => {
  const witnesses = new FaultWitnesses(3, 1000);
  for (let i = 0; i < 10; i += 1) expect(witnesses.saw('a', 'one', i)).toBeUndefined();
  expect(witnesses.saw('a', 'two', 100)).toBeUndefined();
  expect(witnesses.saw('b', 'three', 150)).toBeUndefined();
  expect(witnesses.saw('a', 'three', 200)).toBe(3);
  // Those three were used up by the disable they led to.
  expect(witnesses.saw('a', 'four', 300)).toBeUndefined();
});

it('forgets a witness once the window has passed since it last saw the fault', () => {
  const witnesses = new FaultWitnesses(2, 1000);
  expect(witnesses.saw('a', 'one', 0)).toBeUndefined();
  expect(witnesses.saw('a', 'two', 1000)).toBeUndefined();
  expect(witnesses.saw('a', 'two', 1500)).toBeUndefined();
  // `one` saw it again: its latest sighting counts.
  expect(witnesses.saw('a', 'one', 1900)).toBe(2);
});
