/**
 * The nouns of a prompt, as the things a picture should hold: compromise tags the words (a noun,
 * a plural, a number), a noun is brought to its singular, and a run of two or three words that
 * names one drawing ("hot air balloon", "palm tree") or one noun of WordNet's ("border collie")
 * is read as one noun.
 */
import nlp from 'compromise';
import { catalogue } from './catalogue.js';
import { isCollective, isCreature } from './collectives.js';
import { standInFor, type StandIn } from './stand-in.js';
import { wordnet } from './wordnet.js';

const isOnlyOtherPartOfSpeech = (word: string) =>
  wordnet().sensesOf(word).length === 0 && wordnet().isOtherPartOfSpeech(word);

export interface Noun {
  /** The noun as a drawing or a vocabulary knows it: singular, words joined by "-". */
  word: string;
  /** As written, lower case. */
  written: string;
  plural: boolean;
  /** The number said before it ("two boats", "a few birds"), if any. */
  count?: number;
  /** Whether the tagger calls it a noun (otherwise it was taken for a known thing's name). */
  tagged: boolean;
  /** It says how many of a noun beside it there are ("a herd of buffalo"): nothing to draw. */
  collective?: true;
}

const IRREGULAR: Record<string, string> = {
  men: 'man',
  women: 'woman',
  children: 'child',
  people: 'person',
  mice: 'mouse',
  geese: 'goose',
  feet: 'foot',
  teeth: 'tooth',
  oxen: 'ox',
  leaves: 'leaf',
  wolves: 'wolf',
  knives: 'knife',
  loaves: 'loaf',
  shelves: 'shelf',
  elves: 'elf',
  calves: 'calf',
  halves: 'half',
  cacti: 'cactus',
  fungi: 'fungus',
  dice: 'die',
};

/** The singulars a plural may have, likeliest first ("beaches" → beach, beache). */
export function singularsOf(word: string): string[] {
  const irregular = IRREGULAR[word];
  if (irregular) return [irregular];
  if (word.length < 4 || !word.endsWith('s') || /(ss|us|is)$/.test(word)) return [word];
  const out: string[] = [];
  if (word.endsWith('ies')) out.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('ves')) out.push(`${word.slice(0, -3)}f`, `${word.slice(0, -3)}fe`);
  if (/(ch|sh|ss|x|z|o)es$/.test(word)) out.push(word.slice(0, -2));
  out.push(word.slice(0, -1));
  return out;
}

/** Numbers that may come before a plural ("two boats", "a few birds", "a couple of houses"). */
export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  couple: 2,
  pair: 2,
  few: 3,
  several: 4,
  many: 6,
};

/**
 * A compound's head, the thing it is a kind of: the longest ending of four letters or more
 * that names a drawing or a known word ("sheepdog" → dog is too short, "windsurfer" → surfer).
 */
function headOf(word: string, known: (word: string) => boolean): string | undefined {
  for (let start = 1; start + 4 <= word.length; start += 1) {
    const tail = word.slice(start);
    if (known(tail) || catalogue().find(tail)?.how === 'name') return tail;
  }
  return undefined;
}

interface Term {
  normal: string;
  tags: string[];
}

/**
 * Words that may make one noun together: nouns and adjectives, the last a noun. Such a run is
 * one noun when it names a drawing, or when WordNet has it as one noun whose stand-in is a
 * drawing (joinsAs); otherwise its words are read apart.
 */
const isCompound = (run: Term[]) =>
  run.every((t) => t.tags.includes('Noun') || t.tags.includes('Adjective')) &&
  run.at(-1)!.tags.includes('Noun');

/**
 * Whether WordNet's compound is drawn as its last word is, or its last word draws nothing: a
 * "humpback whale" is the whale, but a "red fox", whose first sense in WordNet is a plant, stays
 * a red fox drawn as the fox.
 */
const joinsAs = (last: string[]) => (compound: string) => {
  const art = standInFor(compound)?.art;
  if (!art) return false;
  const own = last.map((s) => catalogue().find(s) ?? standInFor(s)?.art).find(Boolean);
  return own === undefined || own.name === art.name;
};

/**
 * Nouns in the order written. `known` says whether a singular word names something the caller
 * can show without a drawing (a form of its own vocabulary); the library's drawings are always
 * looked at.
 */
export function nounsOf(prompt: string, known: (word: string) => boolean = () => false): Noun[] {
  const sentences = nlp(prompt).json({ terms: { normal: true } }) as { terms: Term[] }[];
  const terms = sentences
    .flatMap((s) => s.terms)
    .flatMap((t) =>
      t.normal
        .split(/[^\p{L}]+/u)
        .filter(Boolean)
        .map((normal) => ({ normal, tags: t.tags })),
    );
  const library = catalogue();
  const nouns: Noun[] = [];
  // Where each noun starts and ends among the terms, for the words between nouns.
  const spans: { start: number; end: number }[] = [];
  const countBefore = (at: number) =>
    terms
      .slice(Math.max(0, at - 3), at)
      .flatMap((t) => NUMBER_WORDS[t.normal] ?? (/^\d+$/.test(t.normal) ? Number(t.normal) : []))
      .at(-1);
  for (let i = 0; i < terms.length; i += 1) {
    // Two- and three-word names first: "hot air balloon" is one thing, not heat, air and a balloon.
    let joined: { word: string; length: number } | undefined;
    for (const length of [3, 2]) {
      const run = terms.slice(i, i + length);
      if (run.length < length) continue;
      const last = singularsOf(run.at(-1)!.normal);
      const head = run.slice(0, -1).map((t) => t.normal);
      const word =
        last.map((s) => [...head, s].join('-')).find((w) => library.find(w)?.name === w) ??
        (isCompound(run) ? last.map((s) => [...head, s].join('-')).find(joinsAs(last)) : undefined);
      if (word) {
        joined = { word, length };
        break;
      }
    }
    const term = terms[i]!;
    const plural = term.tags.includes('Plural') || singularsOf(term.normal)[0] !== term.normal;
    if (joined) {
      const last = terms[i + joined.length - 1]!;
      nouns.push({
        word: joined.word,
        written: terms
          .slice(i, i + joined.length)
          .map((t) => t.normal)
          .join(' '),
        plural: last.tags.includes('Plural'),
        count: countBefore(i),
        tagged: last.tags.includes('Noun'),
      });
      spans.push({ start: i, end: i + joined.length - 1 });
      i += joined.length - 1;
      continue;
    }
    const singulars = singularsOf(term.normal);
    const found = (w: string) => known(w) || library.find(w) !== undefined;
    // The caller's own words as written ("woods"), then singulars, then the library's keywords
    // as written, last a compound's head: "butterflies" is a butterfly, not a worried face.
    const word =
      (known(term.normal) ? term.normal : singulars.find(found)) ??
      (found(term.normal) ? term.normal : (headOf(singulars[0]!, known) ?? singulars[0]!));
    // An -ing word nothing names is a verb the tagger took for a noun ("a bee collecting pollen"),
    // and so is a word nothing names that WordNet has only as another part of speech ("a crab
    // scuttling sideways").
    const tagged =
      term.tags.includes('Noun') &&
      !term.tags.includes('Pronoun') &&
      (found(word) || !(word.endsWith('ing') || isOnlyOtherPartOfSpeech(word)));
    // A word the tagger took for a verb or an adjective still counts when it names a thing
    // ("two boats drifting"), unless it is a gerund or an adjective the tagger is sure of.
    const named = library.find(word)?.name === word || known(word);
    const other = term.tags.some((t) => t === 'Gerund' || t === 'Adjective' || t === 'Preposition');
    if (!tagged && !(named && !other)) continue;
    nouns.push({
      word,
      written: term.normal,
      plural: plural && word !== term.normal,
      count: countBefore(i),
      tagged,
    });
    spans.push({ start: i, end: i });
  }
  markCollectives(
    nouns,
    (k) => spans[k + 1]!.start === spans[k]!.end + 2 && terms[spans[k]!.end + 1]!.normal === 'of',
    (k) => spans[k + 1]!.start === spans[k]!.end + 1,
  );
  return nouns;
}

/**
 * Marks the words that count a noun beside them, and that noun as several: "a herd of buffalo"
 * (a group word, "of", then what it groups) and "a penguin family" (a creature, then its group).
 * `ofBetween(k)` says whether noun k + 1 follows noun k after "of", `next(k)` right after it.
 */
function markCollectives(
  nouns: Noun[],
  ofBetween: (k: number) => boolean,
  next: (k: number) => boolean,
): void {
  for (let k = 0; k + 1 < nouns.length; k += 1) {
    const [first, second] = [nouns[k]!, nouns[k + 1]!];
    if (first.collective || !second.tagged) continue;
    if (ofBetween(k) && isCollective(first.word)) {
      first.collective = true;
      second.plural = true;
    } else if (next(k) && isCreature(first.word) && isCollective(second.word)) {
      second.collective = true;
      first.plural = true;
    }
  }
}

/** A prompt noun's stand-in: by the word as the library would know it, else as written. */
export function standInOf(noun: Noun, draws?: (word: string) => boolean): StandIn | undefined {
  return (
    standInFor(noun.word, draws) ?? (noun.written === noun.word ? undefined : standInFor(noun.written, draws))
  );
}
