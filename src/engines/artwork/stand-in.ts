/**
 * A stand-in for a noun that no drawing and no word of the caller's names: a more general word
 * WordNet gives for it that one does ("heron" → bird, "sailor" → person, "igloo" → hut). The
 * noun's likeliest sense is tried, and its second where that is the same kind of thing: each
 * first by its synonyms, then by its hypernyms breadth first, up to four levels up, and for a
 * living thing by the other kinds of the family or order it belongs to ("caterpillar", a larva
 * of the order Lepidoptera → lepidopterous insect → insect).
 * Each word is tried as a prompt noun is: the caller's own words first, then the library.
 */
import { catalogue, type Artwork } from './catalogue.js';
import type { Noun } from './nouns.js';
import { wordnet, type Synset } from './wordnet.js';

export interface StandIn {
  /** The word drawn in the noun's place, as the library or the caller knows it. */
  word: string;
  /** The library's drawing for it; none where the caller's own words name it. */
  art?: Artwork;
}

/** How many hypernym levels are climbed: beyond four a word says too little of the noun. */
const LEVELS = 4;
/** Senses tried: a third sense of a word is rarely what a prompt means by it. */
const SENSES = 2;

/**
 * Lexicographer files of nouns a picture can show, with the library's groups a drawing for them
 * may come from: a person is not drawn as a helmet, nor an animal as a hand.
 */
const SCENE_GROUPS = ['animals-nature', 'travel-places', 'food-drink', 'objects', 'activities'];
const DRAWABLE: ReadonlyMap<number, (art: Artwork) => boolean> = new Map([
  [5 /* noun.animal */, (art) => art.subgroup.startsWith('animal-')],
  [6 /* noun.artifact */, (art) => SCENE_GROUPS.includes(art.group)],
  [8 /* noun.body */, (art) => art.group === 'people-body'],
  [13 /* noun.food */, (art) => art.group === 'food-drink'],
  [15 /* noun.location */, (art) => art.group === 'travel-places'],
  [17 /* noun.object */, (art) => SCENE_GROUPS.includes(art.group)],
  [18 /* noun.person */, (art) => art.group === 'people-body'],
  [19 /* noun.phenomenon */, (art) => SCENE_GROUPS.includes(art.group)],
  [20 /* noun.plant */, (art) => art.subgroup.startsWith('plant-')],
  [27 /* noun.substance */, (art) => art.group === 'food-drink'],
]);

/**
 * Animals and plants may take a drawing a word only labels or tags ("insect" → the bug), since
 * the drawing is surely of their kind; other words need a drawing of their very name, or a
 * "machine" would be a fax machine and a "barrier" a construction sign.
 */
const LOOSE = new Set([5, 20]);

/**
 * WordNet's unique beginners (entity, object, whole, living thing, organism, artifact, location,
 * matter, abstraction; but also person, animal, plant, food) are in this lexicographer file.
 * They are too general to stand for a noun unless a drawing has exactly their name (person →
 * a standing figure), and the walk stops at them: above them lie only more general ones.
 */
const TOPS = 3;

/**
 * Synsets just below the unique beginners that still say nothing of a thing's look: a device, a
 * container or a structure could be drawn as anything. The walk stops at them and tries none of
 * their words. Named by their first lemma; they are the general kinds WordNet puts directly
 * under artifact, instrumentality, location and object, not words of any prompt.
 */
const TOO_GENERAL = new Set([
  'instrumentality',
  'structure',
  'covering',
  'commodity',
  'creation',
  'decoration',
  'article',
  'facility',
  'device',
  'container',
  'equipment',
  'implement',
  'system',
  'material',
  'region',
  'area',
  'geographical-area',
  'point',
  'line',
  'extremity',
  'part',
  'unit',
]);

const isProper = (lemma: string) => lemma !== lemma.toLowerCase();

/**
 * The senses to try, likeliest first: WordNet's order (by frequency in its tagged texts), but a
 * sense where the word is a proper name ("Heron", Hero of Alexandria) after the common ones,
 * since the prompt's nouns come lower case.
 */
function sensesOf(noun: string): Synset[] {
  const net = wordnet();
  const synsets = net.sensesOf(noun).map((offset) => net.synset(offset));
  const proper = (s: Synset) => s.lemmas.some((l) => l.toLowerCase() === noun && isProper(l));
  return [...synsets.filter((s) => !proper(s)), ...synsets.filter(proper)].slice(0, SENSES);
}

/** For a living thing: the other common kinds of the family or order it is a member of. */
function kinOf(synset: Synset): number[] {
  const net = wordnet();
  return synset.memberOf
    .map((offset) => net.synset(offset))
    .filter((taxon) => isProper(taxon.lemmas[0]!))
    .flatMap((taxon) => taxon.members)
    .filter((offset) => offset !== synset.offset && !isProper(net.synset(offset).lemmas[0]!));
}

/**
 * The stand-in for a noun, if WordNet finds one; `draws` says whether the caller draws a word
 * itself (the video engine's places and forms). None for a noun whose likeliest sense is no
 * thing (a time, an act, a group, a quality): it is left unknown rather than drawn as anything.
 */
export function standInFor(
  noun: string,
  draws: (word: string) => boolean = () => false,
): StandIn | undefined {
  const net = wordnet();
  const senses = sensesOf(noun.toLowerCase());
  if (senses.length === 0 || !DRAWABLE.has(senses[0]!.lexFile)) return undefined;
  const library = catalogue();
  // The second sense only where it is the same kind of thing: the shoulder of a body is not
  // drawn as a cut of meat, nor a caterpillar as a tracked vehicle.
  const kind = senses[0]!.lexFile;
  for (const sense of senses.filter((s) => s.lexFile === kind)) {
    const fits = DRAWABLE.get(kind)!;
    const seen = new Set<number>();
    const tryWords = (synset: Synset): StandIn | undefined => {
      const general = synset.lexFile === TOPS;
      for (const lemma of synset.lemmas) {
        const word = lemma.toLowerCase();
        if (word === noun || isProper(lemma)) continue;
        if (draws(word)) return { word };
        const art = library.find(word);
        if (art && fits(art) && (art.how === 'name' || (!general && LOOSE.has(sense.lexFile))))
          return { word, art };
      }
      return undefined;
    };
    let level = [sense.offset];
    for (let depth = 0; depth <= LEVELS && level.length > 0; depth += 1) {
      const next: number[] = [];
      for (const offset of level) {
        if (seen.has(offset)) continue;
        seen.add(offset);
        const synset = net.synset(offset);
        if (TOO_GENERAL.has(synset.lemmas[0]!.toLowerCase())) continue;
        const found = tryWords(synset);
        if (found) return found;
        if (synset.lexFile !== TOPS) next.push(...synset.hypernyms);
      }
      // The family's other kinds are as near as the grandparents: a caterpillar is a larva first.
      if (depth === 1) next.push(...kinOf(sense));
      level = next;
    }
  }
  return undefined;
}

/** A prompt noun's stand-in: by the word as the library would know it, else as written. */
export function standInOf(noun: Noun, draws?: (word: string) => boolean): StandIn | undefined {
  return (
    standInFor(noun.word, draws) ?? (noun.written === noun.word ? undefined : standInFor(noun.written, draws))
  );
}
