/**
 * From a sung syllable's letters to what the singer shapes: the consonants before and after, and
 * the vowel (or the two ends of a diphthong) with its formant frequencies. English spelling rules
 * cover the common cases; other alphabets map their vowel letters; characters without letters
 * to read (CJK and the like) get a vowel and an onset from their code point, so every syllable
 * is singable.
 */

/** Formants F1–F5 in Hz for an adult male voice; a voice's formant scale multiplies them. */
export type Formants = readonly [number, number, number, number, number];

const VOWELS = {
  i: [270, 2290, 3010, 3400, 4000],
  ɪ: [390, 1990, 2550, 3400, 4000],
  e: [420, 2080, 2600, 3400, 4000],
  ɛ: [530, 1840, 2480, 3400, 4000],
  æ: [660, 1720, 2410, 3400, 4000],
  ɑ: [730, 1090, 2440, 3400, 4000],
  ɔ: [570, 840, 2410, 3400, 4000],
  o: [460, 830, 2380, 3400, 4000],
  ʊ: [440, 1020, 2240, 3400, 4000],
  u: [300, 870, 2240, 3400, 4000],
  ʌ: [640, 1190, 2390, 3400, 4000],
  ɝ: [490, 1350, 1690, 3400, 4000],
  ə: [500, 1500, 2500, 3400, 4000],
} as const satisfies Record<string, Formants>;

export type VowelName = keyof typeof VOWELS;

export type ConsonantKind = 'fricative' | 'plosive' | 'nasal' | 'liquid' | 'aspirate';

export interface Consonant {
  kind: ConsonantKind;
  voiced: boolean;
  /** Seconds. */
  duration: number;
  /** Noise band centre and sharpness for fricatives and bursts. */
  centre: number;
  q: number;
  /** Relative loudness of the noise. */
  level: number;
  /** The vocal tract shape held during a nasal or a glide. */
  formants?: Formants;
}

export interface Syllable {
  onset: Consonant[];
  vowels: [VowelName] | [VowelName, VowelName];
  coda: Consonant[];
}

export function formantsOf(vowel: VowelName): Formants {
  return VOWELS[vowel];
}

const fricative = (centre: number, q: number, level: number, voiced = false): Consonant => ({
  kind: 'fricative',
  voiced,
  duration: 0.085,
  centre,
  q,
  level,
});
const plosive = (centre: number, voiced = false): Consonant => ({
  kind: 'plosive',
  voiced,
  duration: 0.05,
  centre,
  q: 1,
  level: 0.8,
});
const held = (kind: 'nasal' | 'liquid', formants: Formants): Consonant => ({
  kind,
  voiced: true,
  duration: kind === 'nasal' ? 0.07 : 0.055,
  centre: 0,
  q: 1,
  level: 0,
  formants,
});

const CONSONANTS: Record<string, Consonant> = {
  s: fricative(6500, 1.4, 0.55),
  z: fricative(6000, 1.4, 0.35, true),
  sh: fricative(2900, 1.2, 0.5),
  zh: fricative(2800, 1.2, 0.3, true),
  f: fricative(5000, 0.5, 0.22),
  v: fricative(4500, 0.5, 0.15, true),
  th: fricative(5500, 0.5, 0.18),
  h: { kind: 'aspirate', voiced: false, duration: 0.065, centre: 0, q: 1, level: 0.6 },
  p: plosive(900),
  b: plosive(900, true),
  t: plosive(4200),
  d: plosive(3800, true),
  k: plosive(1900),
  g: plosive(1800, true),
  m: held('nasal', [250, 1100, 2200, 3300, 4000]),
  n: held('nasal', [250, 1700, 2600, 3300, 4000]),
  l: held('liquid', [360, 1300, 2700, 3300, 4000]),
  r: held('liquid', [420, 1300, 1600, 3300, 4000]),
  w: held('liquid', [290, 610, 2150, 3300, 4000]),
  y: held('liquid', [260, 2200, 3000, 3400, 4000]),
};

/** Letter groups to consonants, longest first. */
const SPELLINGS: [string, string[]][] = [
  ['sch', ['sh']],
  ['tch', ['sh']],
  ['sh', ['sh']],
  ['ch', ['t', 'sh']],
  ['th', ['th']],
  ['ph', ['f']],
  ['wh', ['w']],
  ['ck', ['k']],
  ['ng', ['n']],
  ['qu', ['k', 'w']],
  ['gh', []],
  ['kn', ['n']],
  ['wr', ['r']],
  ['x', ['k', 's']],
  ['j', ['d', 'zh']],
  ['c', ['k']],
  ['q', ['k']],
];

function consonantsOf(letters: string, beforeVowel: string): Consonant[] {
  const out: Consonant[] = [];
  let i = 0;
  while (i < letters.length) {
    const rest = letters.slice(i);
    // A soft c or g before e, i, y: "city", "gentle".
    if ((rest[0] === 'c' || rest[0] === 'g') && rest.length === 1 && /^[eiy]/.test(beforeVowel)) {
      out.push(rest[0] === 'c' ? CONSONANTS.s! : CONSONANTS.d!, ...(rest[0] === 'g' ? [CONSONANTS.zh!] : []));
      i += 1;
      continue;
    }
    const spelled = SPELLINGS.find(([spelling]) => rest.startsWith(spelling));
    if (spelled) {
      out.push(...spelled[1].map((name) => CONSONANTS[name]!));
      i += spelled[0].length;
      continue;
    }
    const single = CONSONANTS[rest[0]!];
    if (single) out.push(single);
    i += 1;
  }
  return out;
}

/** Vowel letters of alphabets read letter by letter (Latin outside English, Cyrillic, Greek). */
const PLAIN_VOWELS: Record<string, VowelName> = {
  a: 'ɑ',
  e: 'e',
  i: 'i',
  o: 'o',
  u: 'u',
  y: 'i',
  а: 'ɑ',
  я: 'ɑ',
  е: 'ɛ',
  э: 'ɛ',
  и: 'i',
  ы: 'ɪ',
  о: 'o',
  ё: 'o',
  у: 'u',
  ю: 'u',
  α: 'ɑ',
  ε: 'ɛ',
  η: 'i',
  ι: 'i',
  υ: 'i',
  ο: 'o',
  ω: 'o',
  æ: 'æ',
  ø: 'ʌ',
  œ: 'ʌ',
};
const TRANSLITERATION: Record<string, string> = {
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  ж: 'zh',
  з: 'z',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ф: 'f',
  х: 'h',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'sh',
  β: 'v',
  γ: 'g',
  δ: 'th',
  ζ: 'z',
  θ: 'th',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'ks',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  φ: 'f',
  χ: 'h',
  ψ: 'ps',
};

const CODE_VOWELS: VowelName[] = ['ɑ', 'i', 'u', 'ɛ', 'o', 'ə'];
const CODE_ONSETS = ['', 'm', 'n', 'l', 's', 't', 'k', 'h', 'sh', 'ch', 'w', 'y'];
const DIPHTHONG_WORDS = new Set([
  'my',
  'by',
  'why',
  'fly',
  'cry',
  'try',
  'sky',
  'shy',
  'dry',
  'fry',
  'spy',
  'sly',
  'thy',
  'i',
]);
const LONG_E_WORDS = new Set(['be', 'me', 'we', 'he', 'she']);

/** The sounds of one sung syllable. */
export function syllableOf(text: string): Syllable {
  const letters = [...text.normalize('NFD').toLowerCase()].filter((c) => /\p{L}/u.test(c));
  if (letters.length === 0) return { onset: [], vowels: ['ə'], coda: [] };
  const word = letters.join('');
  if (/^[a-z]+$/.test(word)) return english(word);
  const vowelAt = letters.findIndex((c) => c in PLAIN_VOWELS);
  if (vowelAt >= 0 && letters.every((c) => c in PLAIN_VOWELS || c in TRANSLITERATION || /[a-z]/.test(c))) {
    const spell = (cs: string[]) =>
      cs
        .filter((c) => !(c in PLAIN_VOWELS))
        .map((c) => TRANSLITERATION[c] ?? c)
        .join('');
    return {
      onset: consonantsOf(spell(letters.slice(0, vowelAt)), ''),
      vowels: [PLAIN_VOWELS[letters[vowelAt]!]!],
      coda: consonantsOf(spell(letters.slice(vowelAt + 1)), ''),
    };
  }
  // Nothing to read letter by letter: a vowel and an onset chosen by the character itself.
  const code = text.codePointAt(0) ?? 0;
  return {
    onset: consonantsOf(CODE_ONSETS[(code >> 3) % CODE_ONSETS.length]!, ''),
    vowels: [CODE_VOWELS[code % CODE_VOWELS.length]!],
    coda: [],
  };
}

/** English spelling to sounds, by the nucleus's letters and what follows them. */
function english(word: string): Syllable {
  const match = /[aeiou]+[wy]?(?![aeiou])|[aeiou]+|(?<=.)y/.exec(word);
  if (!match) return { onset: consonantsOf(word, ''), vowels: ['ə'], coda: [] };
  const start = match.index;
  let nucleus = match[0];
  const before = word.slice(0, start);
  let after = word.slice(start + nucleus.length);
  if (nucleus.length > 1 && nucleus.startsWith('u') && before.endsWith('q')) nucleus = nucleus.slice(1);
  let vowels: Syllable['vowels'];
  const silentE = /^[^aeiouy]e$/.test(after);
  const open = after === '';
  if (after.startsWith('r') && !/^r[aeiouy]/.test(after) && nucleus.length === 1) {
    vowels = nucleus === 'a' ? ['ɑ'] : nucleus === 'o' ? ['ɔ'] : ['ɝ'];
  } else if (after.startsWith('gh') && nucleus === 'i') {
    vowels = ['ɑ', 'ɪ'];
    after = after.slice(2);
  } else {
    vowels = vowelOf(nucleus, before, open, silentE, word);
  }
  if (silentE) after = after.slice(0, -1);
  return { onset: consonantsOf(before, nucleus), vowels, coda: consonantsOf(after, '') };
}

function vowelOf(
  nucleus: string,
  before: string,
  open: boolean,
  silentE: boolean,
  word: string,
): Syllable['vowels'] {
  const long = open || silentE;
  switch (nucleus) {
    case 'a':
      return silentE ? ['e', 'ɪ'] : open ? ['ɑ'] : ['æ'];
    case 'e':
      return word === 'the' ? ['ə'] : LONG_E_WORDS.has(word) ? ['i'] : ['ɛ'];
    case 'i':
      return long ? ['ɑ', 'ɪ'] : ['ɪ'];
    case 'o':
      return word === 'to' || word === 'do' || word === 'who' ? ['u'] : long ? ['o', 'ʊ'] : ['ɑ'];
    case 'u':
      return long ? ['u'] : ['ʌ'];
    case 'y':
      return DIPHTHONG_WORDS.has(word) ? ['ɑ', 'ɪ'] : ['i'];
    case 'ee':
    case 'ea':
    case 'ei':
    case 'ey':
      return word.endsWith('ey') && word !== 'they' ? ['i'] : nucleus === 'ey' ? ['e', 'ɪ'] : ['i'];
    case 'ie':
      return open && word.length <= 3 ? ['ɑ', 'ɪ'] : ['i'];
    case 'oo':
    case 'ue':
    case 'ui':
    case 'ew':
      return ['u'];
    case 'ou':
      return before.endsWith('y') ? ['u'] : ['ɑ', 'ʊ'];
    case 'ow':
      return /^(h|n|w|c|v|br|d|t|all|pl)$/.test(before) ? ['ɑ', 'ʊ'] : ['o', 'ʊ'];
    case 'ai':
    case 'ay':
      return ['e', 'ɪ'];
    case 'oa':
    case 'oe':
      return ['o', 'ʊ'];
    case 'oi':
    case 'oy':
      return ['ɔ', 'ɪ'];
    case 'au':
    case 'aw':
      return ['ɔ'];
    case 'eau':
      return ['o'];
    default:
      return vowelOf(nucleus[0]!, before, open, silentE, word);
  }
}
