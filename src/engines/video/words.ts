/**
 * What a prompt asks of a scene: which forms to draw (ocean → waves, city → blocks, …), what
 * falls or drifts through the air, whether it is night, how fast things move, and the hues a
 * form implies when the prompt names none. The negative prompt takes forms and weather out.
 */
export const FORMS = [
  'ridges',
  'dunes',
  'waves',
  'blocks',
  'trunks',
  'blossoms',
  'flames',
  'clouds',
  'planet',
  'orbs',
] as const;
export type Form = (typeof FORMS)[number];

export const WEATHERS = ['snow', 'rain', 'leaves', 'fireflies', 'bubbles', 'embers', 'dust'] as const;
export type Weather = (typeof WEATHERS)[number];

const FORM_WORDS: Record<Form, readonly string[]> = {
  ridges: ['mountain', 'mountains', 'hill', 'hills', 'peak', 'peaks', 'valley', 'cliff', 'cliffs', 'alps'],
  dunes: ['desert', 'dune', 'dunes', 'sand', 'sahara', 'canyon'],
  waves: [
    'ocean',
    'sea',
    'wave',
    'waves',
    'beach',
    'surf',
    'water',
    'lake',
    'river',
    'coast',
    'shore',
    'tide',
  ],
  blocks: [
    'city',
    'cities',
    'street',
    'urban',
    'building',
    'buildings',
    'skyline',
    'town',
    'downtown',
    'skyscraper',
    'skyscrapers',
    'metropolis',
  ],
  trunks: ['forest', 'tree', 'trees', 'woods', 'jungle', 'woodland', 'grove', 'pine', 'pines'],
  blossoms: [
    'flower',
    'flowers',
    'garden',
    'meadow',
    'field',
    'bloom',
    'blossom',
    'blossoms',
    'tulips',
    'roses',
  ],
  flames: ['fire', 'fires', 'flame', 'flames', 'burning', 'blaze', 'campfire', 'inferno', 'lava', 'volcano'],
  clouds: ['cloud', 'clouds', 'cloudy', 'sky', 'heaven', 'heavens'],
  planet: ['space', 'planet', 'planets', 'galaxy', 'cosmos', 'cosmic', 'nebula', 'universe', 'orbit', 'moon'],
  orbs: ['abstract', 'orb', 'orbs', 'bubble', 'dream', 'dreamy', 'surreal'],
};

const WEATHER_WORDS: Record<Weather, readonly string[]> = {
  snow: ['snow', 'snowy', 'snowing', 'snowfall', 'blizzard', 'winter', 'frost'],
  rain: ['rain', 'rainy', 'raining', 'storm', 'stormy', 'drizzle', 'downpour', 'thunderstorm'],
  leaves: ['autumn', 'fall', 'leaves', 'leaf', 'foliage'],
  fireflies: ['firefly', 'fireflies', 'magic', 'magical', 'fairy', 'glow', 'glowing', 'sparkle', 'sparkles'],
  bubbles: ['underwater', 'bubbles', 'aquarium', 'reef', 'coral'],
  embers: ['ember', 'embers', 'spark', 'sparks', 'ash'],
  dust: ['dust', 'dusty', 'haze', 'hazy', 'fog', 'foggy', 'mist', 'misty'],
};

/** What a form brings along when the prompt says nothing of the weather. */
const FORM_WEATHER: Partial<Record<Form, Weather>> = {
  flames: 'embers',
  trunks: 'leaves',
  blossoms: 'fireflies',
  waves: 'bubbles',
  planet: 'dust',
  orbs: 'dust',
};

/** Hue words handed to the palette for a form, when the prompt names no colour itself. */
const FORM_HUES: Record<Form, string> = {
  ridges: 'blue violet',
  dunes: 'gold orange',
  waves: 'blue teal cyan',
  blocks: 'indigo amber',
  trunks: 'green emerald',
  blossoms: 'pink green',
  flames: 'orange red amber',
  clouds: 'blue',
  planet: 'indigo violet',
  orbs: 'magenta cyan',
};

const NIGHT = new Set([
  'night',
  'midnight',
  'dark',
  'starry',
  'stars',
  'star',
  'space',
  'galaxy',
  'cosmos',
  'nebula',
  'moonlit',
  'noir',
]);
const CALM = new Set([
  'calm',
  'slow',
  'slowly',
  'gentle',
  'gently',
  'serene',
  'peaceful',
  'still',
  'quiet',
  'lazy',
  'tranquil',
  'relaxing',
  'soft',
  'drifting',
]);
const FAST = new Set([
  'fast',
  'quick',
  'quickly',
  'rapid',
  'energetic',
  'frantic',
  'action',
  'intense',
  'dynamic',
  'wild',
  'chase',
  'racing',
  'speed',
  'explosive',
  'hyper',
]);
const HUES = new Set([
  'red',
  'crimson',
  'orange',
  'amber',
  'gold',
  'golden',
  'yellow',
  'lime',
  'green',
  'emerald',
  'teal',
  'cyan',
  'turquoise',
  'blue',
  'navy',
  'indigo',
  'violet',
  'purple',
  'magenta',
  'pink',
  'rose',
  'brown',
]);

export interface PromptReading {
  /** Forms the prompt names, in the order of FORMS (back to front). */
  forms: Form[];
  /** Forms the negative prompt names: never drawn, not even as the seed's own choice. */
  bannedForms: Form[];
  weather: Weather[];
  /** Weather the negative prompt names. */
  bannedWeather: Weather[];
  night: boolean;
  /** Motion speed the words ask for: below 1 calm, above 1 energetic. */
  tempo: number;
  /** Hue words for the palette when the prompt has none ('' otherwise). */
  impliedHues: string;
}

const wordsOf = (text: string | undefined) => (text ?? '').toLowerCase().match(/\p{L}+/gu) ?? [];

export function readPrompt(prompt: string, negativePrompt?: string): PromptReading {
  const words = new Set(wordsOf(prompt));
  const unwanted = new Set(wordsOf(negativePrompt));
  const names = (list: readonly string[], set: Set<string>) => list.some((w) => set.has(w));
  const bannedForms = FORMS.filter((f) => names(FORM_WORDS[f], unwanted));
  const forms = FORMS.filter((f) => names(FORM_WORDS[f], words) && !bannedForms.includes(f));
  const bannedWeather = WEATHERS.filter((w) => names(WEATHER_WORDS[w], unwanted));
  const named = WEATHERS.filter((w) => names(WEATHER_WORDS[w], words));
  const implied = forms.flatMap((f) => FORM_WEATHER[f] ?? []);
  const weather = [...new Set([...named, ...implied])].filter((w) => !bannedWeather.includes(w));
  const calm = [...words].filter((w) => CALM.has(w)).length;
  const fast = [...words].filter((w) => FAST.has(w)).length;
  const tempo = calm > fast ? 0.5 : fast > calm ? 1.8 : 1;
  const first = forms[0];
  const impliedHues = [...words].some((w) => HUES.has(w)) || !first ? '' : FORM_HUES[first];
  return {
    forms,
    bannedForms,
    weather,
    bannedWeather,
    night: [...words].some((w) => NIGHT.has(w)),
    tempo,
    impliedHues,
  };
}
