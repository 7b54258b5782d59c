/**
 * The things a prompt names beyond the scene's own forms, each found in the artwork library:
 * where it belongs (the sky, the water, the ground, outer space), how it moves there, how large
 * it is, whether it glows, and what its place needs (a whale brings the sea, a camel the desert,
 * a penguin the snow). Every noun is accounted for: drawn as a form, drawn as a thing, understood
 * as the hour, the weather or the look, drawn as a more general word WordNet gives for it (a
 * heron as a bird, a pasture as grassland), or reported as unknown.
 */
import { catalogue, nounsOf, standInOf, type Artwork } from '../artwork/index.js';
import {
  CALM_WORDS,
  FAST_WORDS,
  HUE_WORDS,
  SCENERY_WORDS,
  SKY_WORDS,
  SUBJECT_WORDS,
  TIME_WORDS,
  WEATHER_WORDS,
  type Form,
  type Weather,
} from './vocabulary.js';

export type Habitat = 'sky' | 'water' | 'ground' | 'space';
/** fly: across the sky; float: bobbing on water; drive and walk: along the ground; blink: a light. */
export type Motion = 'fly' | 'float' | 'drive' | 'walk' | 'drift' | 'blink' | 'still';

export interface Thing {
  noun: string;
  art: string;
  count: number;
  habitat: Habitat;
  motion: Motion;
  /** Height in frame heights near the viewer (scale 1). */
  size: number;
  glows: boolean;
}

export interface NounReport {
  /** Nouns drawn: as the scene's own forms or as things from the library. */
  drawn: string[];
  /** Nouns that set the hour, the weather or the look rather than a thing to draw. */
  understood: string[];
  /** Nouns nothing in the scene stands for. */
  unknown: string[];
  /** Drawn nouns no form or drawing names, with the more general word drawn in their place. */
  standIns: { noun: string; as: string }[];
}

export interface ThingsReading {
  things: Thing[];
  /** Grounds the things need: the sea for a whale, the desert for a camel. */
  implied: Form[];
  weather: Weather[];
  report: NounReport;
  /** The prompt with each stand-in for a form in its noun's place, for the scene's words. */
  reworded: string;
}

/** Words of the look, the framing and the medium: they shape colour and style, not content. */
const LOOK_WORDS = [
  'style',
  'scene',
  'view',
  'shot',
  'photo',
  'photograph',
  'photography',
  'picture',
  'image',
  'painting',
  'art',
  'artwork',
  'illustration',
  'drawing',
  'sketch',
  'render',
  'landscape',
  'portrait',
  'background',
  'light',
  'lighting',
  'color',
  'colour',
  'tone',
  'mood',
  'atmosphere',
  'detail',
  'texture',
  'vibe',
  'aesthetic',
  'cinematic',
  'film',
  'movie',
  'animation',
  'cartoon',
  'watercolor',
  'watercolour',
  'oil',
  'ink',
  'paper',
  'pastel',
  'neon',
  'glow',
  'shadow',
  'silhouette',
  'reflection',
  'closeup',
  'close',
  'panorama',
  'timelapse',
  'motion',
  'pixel',
  'loop',
  'wallpaper',
  'hd',
  'k',
];

export const VOCABULARY = new Set(
  [
    ...Object.values(SCENERY_WORDS).flat(),
    ...Object.values(SUBJECT_WORDS).flatMap((w) => [...w.one, ...w.many]),
    ...SKY_WORDS,
  ].map((w) => w.toLowerCase()),
);
const UNDERSTOOD = new Set([
  ...Object.values(WEATHER_WORDS).flat(),
  ...Object.values(TIME_WORDS).flat(),
  ...CALM_WORDS,
  ...FAST_WORDS,
  ...HUE_WORDS,
  ...LOOK_WORDS,
]);

const LILY_WORDS = SCENERY_WORDS.lilypads;

/** Whether the scene's own vocabulary draws or understands a word. */
export const inVocabulary = (word: string) => VOCABULARY.has(word) || UNDERSTOOD.has(word);

const FLYERS = new Set([
  'airplane',
  'small-airplane',
  'helicopter',
  'parachute',
  'balloon',
  'kite',
  'flying-saucer',
  'dragon',
  'butterfly',
  'honeybee',
  'bat',
  'comet',
  'shooting-star',
  'rainbow',
  'fairy',
  'angel',
  'cloud',
  'cloud-with-lightning',
]);
/** Things of the sky's group that stand on the ground. */
const GROUNDED = new Set(['snowman', 'snowman-without-snow', 'umbrella-on-ground', 'fire', 'volcano']);
const GROUND_BIRDS = new Set(['penguin', 'chicken', 'rooster', 'turkey', 'flamingo', 'peacock', 'dodo']);
/** What swims or sails though its group says otherwise. */
const SWIMMERS = new Set([
  'duck',
  'swan',
  'person-surfing',
  'person-rowing-boat',
  'person-swimming',
  'merperson',
]);
const SPACE = new Set([
  'rocket',
  'astronaut',
  'satellite',
  'flying-saucer',
  'alien',
  'ringed-planet',
  'comet',
]);
const LIGHTS = new Set([
  'light-bulb',
  'candle',
  'red-paper-lantern',
  'diya-lamp',
  'flashlight',
  'star',
  'glowing-star',
  'sparkles',
  'fireworks',
  'sparkler',
  'christmas-tree',
  'jack-o-lantern',
  'vertical-traffic-light',
  'horizontal-traffic-light',
  'lighthouse',
  'fire',
]);
const VEHICLE =
  /car|bus|bike|bicycle|truck|tractor|motorcycle|scooter|locomotive|train|tram|van|ambulance|taxi|trolleybus|engine|skateboard/;

/** Pictures of the sun and the moon: where the scene's own sun or moon shines, they are not drawn again. */
export const SKY_ART: Readonly<Record<string, Form>> = Object.fromEntries([
  ...['sun', 'sun-with-face'].map((art) => [art, 'sun']),
  ...[
    'full-moon',
    'full-moon-face',
    'full-moon-with-face',
    'new-moon',
    'new-moon-face',
    'crescent-moon',
    'first-quarter-moon',
    'first-quarter-moon-face',
    'first-quarter-moon-with-face',
    'last-quarter-moon',
    'last-quarter-moon-face',
    'last-quarter-moon-with-face',
    'waning-crescent-moon',
    'waning-gibbous-moon',
    'waxing-crescent-moon',
    'waxing-gibbous-moon',
  ].map((art) => [art, 'moon']),
]);

/** What a thing's place needs: the ground it implies, and the weather. */
const NEEDS: Readonly<Record<string, { form?: Form; weather?: Weather }>> = {
  camel: { form: 'dunes' },
  'two-hump-camel': { form: 'dunes' },
  cactus: { form: 'dunes' },
  scorpion: { form: 'dunes' },
  penguin: { form: 'snowfield', weather: 'snow' },
  'polar-bear': { form: 'snowfield', weather: 'snow' },
  snowman: { form: 'snowfield', weather: 'snow' },
  'snowman-without-snow': { form: 'snowfield', weather: 'snow' },
  skier: { form: 'snowfield', weather: 'snow' },
  'ice-skate': { form: 'snowfield' },
  sled: { form: 'snowfield', weather: 'snow' },
};

const BIG = new Set([
  'elephant',
  'horse',
  'giraffe',
  'camel',
  'two-hump-camel',
  'cow',
  'ox',
  'water-buffalo',
  'mammoth',
  'rhinoceros',
  'hippopotamus',
  'bison',
  'moose',
  'bear',
  'polar-bear',
  'deer',
  'zebra',
  'gorilla',
  'spouting-whale',
  'whale',
  'ship',
  'passenger-ship',
  'dragon',
  'sauropod',
  't-rex',
]);
const TALL = new Set([
  'lighthouse',
  'tokyo-tower',
  'statue-of-liberty',
  'office-building',
  'stadium',
  'castle',
  'european-castle',
  'japanese-castle',
]);

function habitatOf(art: Artwork, space: boolean): Habitat {
  if (space && SPACE.has(art.name)) return 'space';
  if (GROUNDED.has(art.name)) return space ? 'space' : 'ground';
  if (FLYERS.has(art.name) || art.subgroup === 'transport-air' || art.subgroup === 'sky-weather')
    return 'sky';
  if (art.subgroup === 'animal-bird' && !GROUND_BIRDS.has(art.name))
    return SWIMMERS.has(art.name) ? 'water' : 'sky';
  if (
    art.subgroup === 'transport-water' ||
    (art.subgroup === 'animal-marine' && art.name !== 'crab') ||
    SWIMMERS.has(art.name)
  )
    return 'water';
  return space ? 'space' : 'ground';
}

function motionOf(art: Artwork, habitat: Habitat): Motion {
  if (LIGHTS.has(art.name)) return 'blink';
  if (habitat === 'sky') return 'fly';
  if (habitat === 'water') return 'float';
  if (habitat === 'space') return 'drift';
  if (art.subgroup === 'transport-ground' && VEHICLE.test(art.name)) return 'drive';
  if (/^animal-(mammal|bird|reptile|amphibian)$/.test(art.subgroup) || art.subgroup.startsWith('person'))
    return 'walk';
  return 'still';
}

function sizeOf(art: Artwork): number {
  if (TALL.has(art.name)) return 0.5;
  if (BIG.has(art.name)) return 0.24;
  if (GROUND_BIRDS.has(art.name)) return 0.13;
  if (art.name.endsWith('-tree') || art.name === 'cactus') return 0.3;
  const bySubgroup: Record<string, number> = {
    'place-building': 0.32,
    'place-religious': 0.34,
    'place-other': 0.3,
    'place-geographic': 0.3,
    'transport-ground': 0.14,
    'transport-water': 0.16,
    'transport-air': 0.12,
    'animal-mammal': 0.14,
    'animal-bird': 0.08,
    'animal-marine': 0.12,
    'animal-reptile': 0.1,
    'animal-bug': 0.05,
    'plant-flower': 0.08,
    'plant-other': 0.1,
    'sky-weather': 0.16,
  };
  if (art.subgroup.startsWith('person')) return 0.2;
  return bySubgroup[art.subgroup] ?? 0.1;
}

const MANY = 3;

/** The things of a prompt and the report on its nouns; `banned` words (the negative prompt's) draw nothing. */
export function readThings(prompt: string, negativePrompt?: string): ThingsReading {
  const nouns = nounsOf(prompt, inVocabulary);
  const banned = new Set(nounsOf(negativePrompt ?? '', inVocabulary).map((n) => n.word));
  const library = catalogue();
  const report: NounReport = { drawn: [], understood: [], unknown: [], standIns: [] };
  let reworded = prompt;
  const found = nouns.flatMap((noun, k) => {
    // "Lily pad": the pad is the lily's, drawn with it, not a notepad.
    const lilys = noun.word === 'pad' && LILY_WORDS.includes(nouns[k - 1]?.word ?? '');
    // "A herd of buffalo": the herd says how many buffalo, which are drawn; the scene's words
    // must not read it either ("a penguin family" is no crowd of people).
    if (noun.collective) {
      report.understood.push(noun.written);
      reworded = reworded.replace(new RegExp(`\\b${noun.written}\\b`, 'i'), '');
      return [];
    }
    if (lilys || VOCABULARY.has(noun.word) || VOCABULARY.has(noun.written)) {
      report.drawn.push(noun.written);
      return [];
    }
    if (UNDERSTOOD.has(noun.word) || UNDERSTOOD.has(noun.written)) {
      report.understood.push(noun.written);
      return [];
    }
    const art = library.find(noun.word);
    // A word the tagger only guessed a noun and nothing knows is not worth a report.
    if (banned.has(noun.word) || (!art && !noun.tagged)) return [];
    if (art) {
      report.drawn.push(noun.written);
      return [{ noun, art }];
    }
    const standIn = standInOf(noun, (word) => VOCABULARY.has(word));
    if (!standIn || banned.has(standIn.word)) {
      report.unknown.push(noun.written);
      return [];
    }
    report.drawn.push(noun.written);
    report.standIns.push({ noun: noun.written, as: standIn.word });
    if (standIn.art) return [{ noun, art: standIn.art }];
    // The scene's words name several of a form by a plural: "three sailors" are three persons.
    const word = noun.plural ? `${standIn.word}s` : standIn.word;
    reworded = reworded.replace(new RegExp(`\\b${noun.written}\\b`, 'i'), word);
    return [];
  });
  const space =
    nouns.some((n) => SCENERY_WORDS.planet.includes(n.word)) || found.some((f) => f.art.name === 'astronaut');
  const things = new Map<string, Thing>();
  for (const { noun, art } of found) {
    if (things.has(art.name)) continue;
    const habitat = habitatOf(art, space);
    things.set(art.name, {
      noun: noun.word,
      art: art.name,
      count: Math.min(8, noun.count ?? (noun.plural ? MANY : 1)),
      habitat,
      motion: motionOf(art, habitat),
      size: sizeOf(art),
      glows: LIGHTS.has(art.name),
    });
  }
  const list = [...things.values()];
  const implied = new Set<Form>();
  const weather = new Set<Weather>();
  for (const thing of list) {
    const need = NEEDS[thing.art];
    if (need?.form) implied.add(need.form);
    if (need?.weather) weather.add(need.weather);
    if (thing.habitat === 'water') implied.add('waves');
    // What stands on the ground by the sea stands on its beach (a tent too); buildings keep to
    // their rock.
    if (
      thing.habitat === 'ground' &&
      !/^place-(building|religious)/.test(catalogue().find(thing.art)?.subgroup ?? '')
    )
      implied.add('beach');
    if (thing.habitat === 'space') implied.add('planet');
  }
  return { things: list, implied: [...implied], weather: [...weather], report, reworded };
}
