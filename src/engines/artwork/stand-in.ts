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
import { wordnet, type Synset } from './wordnet.js';

export interface StandIn {
  /** The word drawn in the noun's place, as the library or the caller knows it. */
  word: string;
  /** The library's drawing for it; none where the caller's own words name it. */
  art?: Artwork;
}

/**
 * How many levels are climbed: six reach a drummer's person (percussionist, musician,
 * performer, entertainer); the general kinds below stop the walk before it says too little.
 */
const LEVELS = 6;
/** Senses looked at: past the third, a sense is rarely what a prompt means by the word. */
const SENSES = 3;

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
const PERSON = 18;

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
 * since the prompt's nouns come lower case; then, of the first three, those of the kind of the
 * first that is a thing a picture shows. A prompt describes a picture, so "a band on a stage" is
 * the platform (WordNet's third sense), not a phase (its first), and a "hive" the beehive.
 */
function sensesOf(noun: string): Synset[] {
  const net = wordnet();
  const synsets = net.sensesOf(noun).map((offset) => net.synset(offset));
  const proper = (s: Synset) => s.lemmas.some((l) => l.toLowerCase() === noun && isProper(l));
  const likeliest = [...synsets.filter((s) => !proper(s)), ...synsets.filter(proper)].slice(0, SENSES);
  // A person named after an animal or a plant ("a chameleon", a changeable person) is the
  // figure of speech; the picture shows the animal.
  const drawable = likeliest.find((s) => DRAWABLE.has(s.lexFile))?.lexFile;
  const living = likeliest.find((s) => LOOSE.has(s.lexFile))?.lexFile;
  const kind = drawable === PERSON && living !== undefined ? living : drawable;
  return likeliest.filter((s) => s.lexFile === kind);
}

/** Whether any of a noun's likeliest senses is a thing a picture could show (not a time, an act…). */
export function isThing(noun: string): boolean {
  return sensesOf(noun.toLowerCase()).length > 0;
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
  // Only senses of one kind: the shoulder of a body is not drawn as a cut of meat, nor a
  // caterpillar as a tracked vehicle.
  const senses = sensesOf(noun.toLowerCase());
  if (senses.length === 0) return undefined;
  const library = catalogue();
  const kind = senses[0]!.lexFile;
  for (const sense of senses) {
    const fits = DRAWABLE.get(kind)!;
    const seen = new Set<number>();
    const tryWords = (synset: Synset): StandIn | undefined => {
      const general = synset.lexFile === TOPS;
      for (const lemma of synset.lemmas) {
        const word = lemma.toLowerCase();
        if (word === noun || isProper(lemma)) continue;
        // The caller's words for a thing of a kind a picture shows: a family (a group) is no
        // crowd of people, though the video's words draw "family" as one.
        if (draws(word) && (general || DRAWABLE.has(synset.lexFile))) return { word };
        const art = library.find(word);
        // At the top of a living thing's kinds, a drawing whose label holds the word ("plant" →
        // the potted plant) still shows one; a keyword ("animal" → the ox) does not.
        const loose = LOOSE.has(sense.lexFile) && (!general || art?.how === 'label');
        if (art && fits(art) && (art.how === 'name' || loose)) return { word, art };
      }
      return undefined;
    };
    // The sense's own wholes come next to its hypernyms: a hillside shows as hills, a courtyard
    // as buildings. Only its own: a whole's whole is too far (a chimney is no oil lamp's).
    const first = sense === senses[0];
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
        if (depth === 0 && first) next.push(...synset.partOf);
      }
      // The family's other kinds are as near as the grandparents: a caterpillar is a larva first.
      if (depth === 1) next.push(...kinOf(sense));
      level = next;
    }
  }
  return undefined;
}
