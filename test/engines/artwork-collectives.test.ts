/**
 * Group words ("a herd of buffalo", "a penguin family") say how many of a thing there are: they
 * are drawn as nothing and the thing as several, in the video scene and in QR art.
 */
import { describe, expect, it } from 'vitest';
import { nounsOf } from '../../src/engines/artwork/index.js';
import { thingsOf } from '../../src/engines/qr/art.js';
import { planScene } from '../../src/engines/video/scene.js';
import { readThings } from '../../src/engines/video/things.js';

const counted = (prompt: string) => readThings(prompt).things.map((t) => `${t.art}×${t.count}`);

describe('group words', () => {
  it('count the noun after "of" or the creature before them, and are not drawn', () => {
    expect(counted('a herd of buffalo crossing the plains')).toEqual(['water-buffalo×3']);
    expect(counted('a school of fish')).toEqual(['fish×3']);
    expect(counted('a penguin family on the ice')).toContain('penguin×3');
    // The scene's own words do not read the family as people either.
    const scene = planScene({ prompt: 'a penguin family on the ice', seed: 1 }, { width: 320, height: 180 });
    expect(scene.forms).not.toContain('people');
    expect(readThings('a flock of sheep on a hill').report.understood).toContain('flock');
    // A number said before the group still counts.
    expect(nounsOf('two swarms of bees').find((n) => n.word === 'bee')?.count).toBe(2);
  });

  it('leave alone what only looks like one: a house of cards, a field of tulips, a bird house', () => {
    const collectives = (prompt: string) =>
      nounsOf(prompt)
        .filter((n) => n.collective)
        .map((n) => n.word);
    expect(collectives('a house of cards')).toEqual([]);
    expect(collectives('a field of tulips')).toEqual([]);
    expect(collectives('a bird house in a garden')).toEqual([]);
    expect(collectives('a family having a picnic')).toEqual([]);
  });

  it('draw nothing in QR art', () => {
    const things = thingsOf('a school of fish');
    expect(things.drawn.map((d) => d.art)).toEqual(['fish']);
    expect(things.unknown).toEqual([]);
  });
});
