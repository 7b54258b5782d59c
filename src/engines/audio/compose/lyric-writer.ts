/**
 * Lyrics, a title and style words from a song description when no language model is at hand:
 * the description's content words are set into line templates whose last words rhyme in pairs
 * from a small rhyme table, in a verse–chorus form. Deterministic by seed; words in any script
 * are used as written.
 */
import { hashOf, pick, seeded, type Random } from '../../random.js';
import { styleWords } from './style.js';

/** Rhyming nouns: each line ends on one, two lines a pair. */
const RHYMES = [
  ['night', 'light', 'flight', 'sight', 'kite'],
  ['heart', 'start', 'art', 'part', 'chart'],
  ['rain', 'pain', 'chain', 'lane', 'train'],
  ['fire', 'wire', 'choir', 'spire'],
  ['day', 'way', 'bay', 'play', 'ray'],
  ['sky', 'lullaby', 'butterfly', 'firefly'],
  ['home', 'stone', 'phone', 'throne', 'bone'],
  ['sea', 'tree', 'key', 'memory', 'melody'],
  ['line', 'sign', 'shine', 'wine', 'pine'],
  ['dream', 'stream', 'gleam', 'beam'],
  ['snow', 'glow', 'show', 'radio'],
];

const VERSE = [
  'I keep on walking through the {w} into the {r}',
  'Every {w} I hold is shining like the {r}',
  'We were young and chasing {w} under the {r}',
  'Close your eyes and feel the {w} inside the {r}',
  "There's a {w} that's calling from the {r}",
  'Maybe all the {w} was only in the {r}',
  'You and I were dancing with the {w} beneath the {r}',
  'I remember {w} and the {r}',
  'Counting every {w} until the {r}',
  'Paint the {w} across the {r}',
];

const CHORUS = [
  'Oh {t}, you are my {r}',
  'Sing it loud for the {w} and the {r}',
  "We'll be running to the {r}",
  'Hold me close like the {r}',
  'Carry me through the {w} and the {r}',
  'All we need is the {w} and the {r}',
];

const BRIDGE = [
  'And if the {w} should fade into the {r}',
  "I'll still be waiting by the {r}",
  "When the {w} is gone we'll find the {r}",
  'Slow it down and breathe the {r}',
];

const STOP = new Set(
  (
    'a an the and or but about of in on at to for with without song songs music track tracks make write create ' +
    'that this these those is are was were be been it its my your our me you we they he she i some very really like ' +
    'from into over under style genre tune lyrics lyric vocal vocals sung singing please generate want need just so ' +
    'by as up down out all one two can could would should will what when where who how which there their them his her ' +
    'mine yours not no yes do does did have has had more most than then also only even still get got let lets let’s ' +
    'feat featuring version kind sort type piece sound sounds short brief little jingle snippet'
  ).split(' '),
);

const DEFAULT_WORDS = [
  'road',
  'heart',
  'river',
  'city',
  'summer',
  'window',
  'morning',
  'ocean',
  'stars',
  'shadow',
];
const DEFAULT_TITLES = [
  'Golden Hour',
  'Paper Moon',
  'Midnight Drive',
  'Northern Lights',
  'Open Road',
  'Silver Lining',
];

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** The description's content words in order, without style words, stop words or repeats. */
function contentWords(prompt: string): string[] {
  const styled = new Set(styleWords(prompt).flatMap((phrase) => phrase.toLowerCase().split(/\s+/)));
  const words: string[] = [];
  for (const token of prompt.match(/[\p{L}\p{M}'’]+/gu) ?? []) {
    if (CJK.test(token)) {
      // Unspaced scripts: two characters make a word.
      for (let i = 0; i < token.length; i += 2) words.push(token.slice(i, i + 2));
      continue;
    }
    const word = token.replace(/’/g, "'").toLowerCase();
    const latin = /^[a-z']+$/.test(word);
    if ((latin && word.length < 3) || STOP.has(word) || styled.has(word)) continue;
    words.push(latin ? word : token);
  }
  return [...new Set(words)];
}

function fillLine(template: string, word: string, rhyme: string, title: string): string {
  return template.replace('{w}', word).replace('{r}', rhyme).replace('{t}', title);
}

/** Four lines in rhyming pairs (AABB) from `templates`, cycling through the content words. */
function stanza(
  templates: string[],
  words: string[],
  title: string,
  random: Random,
  at: { i: number },
): string[] {
  const lines: string[] = [];
  for (let pair = 0; pair < 2; pair += 1) {
    const rhymes = [...pick(random, RHYMES)];
    for (let k = 0; k < 2; k += 1) {
      const rhyme = rhymes.splice(Math.floor(random() * rhymes.length), 1)[0]!;
      const word = words[at.i++ % words.length]!;
      const line = fillLine(pick(random, templates), word, rhyme, title);
      lines.push(line.charAt(0).toUpperCase() + line.slice(1));
    }
  }
  return lines;
}

function titleWord(words: string[], random: Random): string {
  return words.length > 0 ? pick(random, words.slice(0, 3)) : pick(random, DEFAULT_WORDS);
}

/**
 * A description that asks for a short song ("a short pop song", "a jingle for…") gets one verse and
 * one chorus; "a song about a short man" is no such request.
 */
const SHORT =
  /\b(?:(?:short|brief)(?:\s+[\p{L}-]+){0,3}?\s+(?:song|tune|track|piece|number|ballad|one)|jingle|snippet)s?\b/iu;

/**
 * Lyrics with section markers: verse, chorus, second verse, chorus, and sometimes a bridge and an
 * outro; a verse and a chorus alone when the description asks for a short song.
 */
export function writeLyrics(prompt: string, seed: number): string {
  const random = seeded(hashOf(prompt, seed));
  const found = contentWords(prompt);
  const offset = Math.floor(random() * DEFAULT_WORDS.length);
  const words =
    found.length > 0 ? found : [0, 3, 6, 8].map((k) => DEFAULT_WORDS[(offset + k) % DEFAULT_WORDS.length]!);
  const hook = titleWord(found, random);
  const at = { i: 0 };
  const chorus = stanza(CHORUS, words, hook, random, at);
  chorus[0] = `Oh ${hook}, ${hook}, ${chorus[0]!.charAt(0).toLowerCase()}${chorus[0]!.slice(1)}`.slice(0, 60);
  const sections = [
    ['[Verse]', ...stanza(VERSE, words, hook, random, at)],
    ['[Chorus]', ...chorus],
  ];
  if (!SHORT.test(prompt)) {
    sections.push(['[Verse 2]', ...stanza(VERSE, words, hook, random, at)], ['[Chorus]', ...chorus]);
    if (random() < 0.5)
      sections.push(['[Bridge]', ...stanza(BRIDGE, words, hook, random, at)], ['[Chorus]', ...chorus]);
    if (random() < 0.5) sections.push(['[Outro]', `${hook}, ${hook}`, `Oh, ${hook}`]);
  }
  return sections.map((lines) => lines.join('\n')).join('\n\n');
}

/** A short title (at most 80 characters) from the description's first content words. */
export function titleFrom(prompt: string, seed: number): string {
  const random = seeded(hashOf(prompt, seed ^ 0x5f3759df));
  const words = contentWords(prompt);
  const cap = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
  let title: string;
  if (words.length === 0) title = pick(random, DEFAULT_TITLES);
  else if (words.length === 1 || random() < 0.35)
    title = `${pick(random, ['', 'The ', 'My '])}${cap(words[0]!)}`;
  else title = `${cap(words[0]!)} ${pick(random, ['and', 'of', 'in', 'for', 'on'])} ${cap(words[1]!)}`;
  return [...title].slice(0, 80).join('');
}

/** The style words in a free-text description, e.g. "a sad piano ballad about rain" gives "sad piano ballad". */
export function styleFromPrompt(prompt: string): string {
  return styleWords(prompt).join(' ');
}
