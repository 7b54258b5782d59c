/**
 * Words that say how many of something there are, not what to draw: "a herd of buffalo", "a
 * school of fish", "a penguin family", "a wolf pack". Such a word is drawn as nothing, and the
 * thing it counts is drawn as several. Without this a herd was drawn as a bison beside one
 * buffalo, and a school of fish as a school building beside one fish.
 */
import { catalogue } from './catalogue.js';
import { wordnet, type Synset } from './wordnet.js';

/** How far up an "animal group" (herd, flock, pod, pride) is looked for. */
const LEVELS = 3;
const GROUPS = 14; // noun.group

function underAnimalGroup(synset: Synset, levels: number): boolean {
  if (levels === 0) return false;
  const net = wordnet();
  return synset.hypernyms.some((offset) => {
    const above = net.synset(offset);
    return above.lemmas.includes('animal-group') || underAnimalGroup(above, levels - 1);
  });
}

/**
 * A word whose likeliest sense is a group of people or things (WordNet's noun.group: a crowd, a
 * bunch, a row, a family, a school), that names a group itself, or that has a sense among the
 * animal groups (a pack of wolves, a pride of lions).
 */
export function isCollective(word: string): boolean {
  const net = wordnet();
  const senses = net.sensesOf(word).map((offset) => net.synset(offset));
  const first = senses[0];
  if (!first) return false;
  return (
    first.lexFile === GROUPS ||
    first.lemmas[0] === 'group' ||
    senses.some((sense) => underAnimalGroup(sense, LEVELS))
  );
}

/** Whether a noun names a living thing a drawing shows: an animal or a person. */
export function isCreature(word: string): boolean {
  const art = catalogue().find(word);
  return art !== undefined && (art.subgroup.startsWith('animal-') || art.subgroup.startsWith('person'));
}
