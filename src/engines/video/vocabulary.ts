/**
 * The nouns the local video engine can draw, and the other words it understands: each form with
 * the words that name it (a subject's singular and plural apart, since "birds" is a flock and
 * "bird" one), the weather, the hour of the day, the pace. A word not listed here draws nothing.
 */

/** Forms that are a ground of their own, back to front: without one, a scene gets plain land. */
export const GROUNDS = [
  'seabed',
  'ridges',
  'volcano',
  'dunes',
  'waves',
  'beach',
  'land',
  'snowfield',
  'room',
  'river',
  'blocks',
  'trunks',
  'blossoms',
  'pond',
  'road',
] as const;

/** Forms drawn as separate things, each named once ("boat") or several times ("boats"). */
export const SUBJECTS = [
  'castle',
  'house',
  'windmill',
  'lighthouse',
  'bridge',
  'tree',
  'ship',
  'boat',
  'car',
  'people',
  'birds',
] as const;
export type Subject = (typeof SUBJECTS)[number];

/**
 * Every form, back to front: sky things, grounds, lily pads floating on their water, a fire
 * burning on them, things standing on them, abstract orbs.
 */
export const FORMS = [
  'sun',
  'moon',
  'clouds',
  'planet',
  ...GROUNDS,
  'lilypads',
  'flames',
  ...SUBJECTS,
  'orbs',
] as const;
export type Form = (typeof FORMS)[number];

export const isGround = (form: Form): boolean => (GROUNDS as readonly Form[]).includes(form);

export const WEATHERS = ['snow', 'rain', 'leaves', 'fireflies', 'bubbles', 'embers', 'dust'] as const;
export type Weather = (typeof WEATHERS)[number];

export const TIMES = ['day', 'dawn', 'dusk', 'night'] as const;
export type TimeOfDay = (typeof TIMES)[number];

type Scenery = Exclude<Form, Subject>;

export const SCENERY_WORDS: Record<Scenery, readonly string[]> = {
  sun: ['sun', 'sunshine', 'sunlight', 'sunset', 'sunrise', 'sundown'],
  moon: ['moon', 'moonlight', 'moonlit', 'moonrise', 'crescent'],
  clouds: ['cloud', 'clouds', 'cloudy', 'overcast'],
  planet: ['space', 'planet', 'planets', 'galaxy', 'cosmos', 'cosmic', 'nebula', 'universe', 'orbit'],
  ridges: ['mountain', 'mountains', 'hill', 'hills', 'peak', 'peaks', 'valley', 'cliff', 'cliffs', 'alps'],
  dunes: ['desert', 'dune', 'dunes', 'sand', 'sahara', 'canyon'],
  waves: [
    'ocean',
    'sea',
    'seas',
    'wave',
    'waves',
    'surf',
    'water',
    'lake',
    'tide',
    'harbor',
    'harbour',
    'bay',
  ],
  beach: ['beach', 'beaches', 'shore', 'shoreline', 'coast', 'coastline', 'seaside'],
  land: [
    'land',
    'field',
    'fields',
    'grass',
    'grassland',
    'plain',
    'plains',
    'prairie',
    'countryside',
    'farmland',
    'farm',
    'park',
  ],
  snowfield: [
    'snowfield',
    'tundra',
    'arctic',
    'glacier',
    'antarctic',
    'antarctica',
    'iceberg',
    'polar',
    'snowscape',
  ],
  room: [
    'room',
    'kitchen',
    'bedroom',
    'interior',
    'indoors',
    'indoor',
    'studio',
    'library',
    'cafe',
    'classroom',
    'attic',
    'hall',
    'table',
    'desk',
    'windowsill',
    'shelf',
  ],
  river: ['river', 'rivers', 'stream', 'creek', 'brook', 'canal'],
  blocks: [
    'city',
    'cities',
    'street',
    'streets',
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
  trunks: ['forest', 'forests', 'woods', 'jungle', 'woodland', 'grove', 'pine', 'pines'],
  blossoms: ['flower', 'flowers', 'garden', 'meadow', 'bloom', 'blossom', 'blossoms', 'tulips', 'roses'],
  pond: ['pond', 'ponds', 'millpond'],
  lilypads: ['lily', 'lilies', 'lilypad', 'lilypads', 'waterlily', 'waterlilies'],
  road: ['road', 'roads', 'highway', 'freeway', 'motorway'],
  flames: ['fire', 'fires', 'flame', 'flames', 'burning', 'blaze', 'campfire', 'bonfire', 'inferno'],
  seabed: ['underwater', 'undersea', 'seabed', 'seafloor'],
  volcano: ['volcano', 'volcanoes', 'volcanic', 'lava', 'eruption', 'erupting', 'magma'],
  orbs: ['abstract', 'orb', 'orbs', 'bubble', 'dream', 'dreamy', 'surreal'],
};

/** Words for the sky itself: a scene of nothing else has no ground. */
export const SKY_WORDS = ['sky', 'skies', 'heaven', 'heavens', 'air', 'skyward', 'aloft'];

/** A subject's words: naming one of it, and naming several. */
export const SUBJECT_WORDS: Record<Subject, { one: readonly string[]; many: readonly string[] }> = {
  castle: {
    one: ['castle', 'fortress', 'palace', 'fort', 'citadel'],
    many: ['castles', 'fortresses', 'palaces'],
  },
  house: {
    one: ['house', 'cottage', 'cabin', 'hut', 'farmhouse', 'barn', 'home', 'villa', 'chalet'],
    many: ['houses', 'cottages', 'cabins', 'huts', 'village', 'homes', 'villas'],
  },
  windmill: { one: ['windmill'], many: ['windmills'] },
  lighthouse: { one: ['lighthouse', 'beacon'], many: ['lighthouses'] },
  bridge: { one: ['bridge', 'viaduct'], many: ['bridges'] },
  tree: {
    one: ['tree', 'oak', 'willow', 'maple', 'birch', 'palm'],
    many: ['trees', 'oaks', 'willows', 'maples', 'birches', 'palms', 'orchard'],
  },
  ship: {
    one: ['ship', 'steamship', 'ferry', 'freighter', 'liner', 'galleon', 'vessel', 'tanker'],
    many: ['ships', 'ferries', 'freighters', 'vessels', 'tankers', 'fleet'],
  },
  boat: {
    one: ['boat', 'sailboat', 'rowboat', 'raft', 'yacht', 'gondola', 'dinghy'],
    many: ['boats', 'sailboats', 'yachts', 'gondolas'],
  },
  car: {
    one: ['car', 'taxi', 'jeep', 'van', 'automobile', 'vehicle'],
    many: ['cars', 'taxis', 'traffic', 'vehicles', 'automobiles'],
  },
  people: {
    one: [
      'person',
      'man',
      'woman',
      'child',
      'girl',
      'boy',
      'walker',
      'pedestrian',
      'figure',
      'traveler',
      'traveller',
      'hiker',
      'stranger',
    ],
    many: [
      'people',
      'crowd',
      'crowds',
      'persons',
      'men',
      'women',
      'children',
      'kids',
      'pedestrians',
      'walkers',
      'figures',
      'travelers',
      'travellers',
      'hikers',
      'family',
      'tourists',
    ],
  },
  birds: {
    one: ['bird', 'seagull', 'gull', 'eagle', 'hawk', 'crow', 'raven', 'dove', 'swallow', 'falcon'],
    many: ['birds', 'seagulls', 'gulls', 'eagles', 'hawks', 'crows', 'ravens', 'doves', 'swallows', 'flock'],
  },
};

/** How many of a subject the plural draws. */
export const MANY: Record<Subject, number> = {
  castle: 2,
  house: 3,
  windmill: 3,
  lighthouse: 2,
  bridge: 1,
  tree: 3,
  ship: 2,
  boat: 3,
  car: 3,
  people: 5,
  birds: 7,
};

export const WEATHER_WORDS: Record<Weather, readonly string[]> = {
  snow: ['snow', 'snowy', 'snowing', 'snowfall', 'blizzard', 'winter', 'frost'],
  rain: ['rain', 'rainy', 'raining', 'storm', 'stormy', 'drizzle', 'downpour', 'thunderstorm'],
  leaves: ['autumn', 'fall', 'leaves', 'leaf', 'foliage'],
  fireflies: ['firefly', 'fireflies', 'magic', 'magical', 'fairy', 'glow', 'glowing', 'sparkle', 'sparkles'],
  bubbles: ['underwater', 'bubbles', 'aquarium', 'reef', 'coral'],
  embers: ['ember', 'embers', 'spark', 'sparks', 'ash'],
  dust: ['dust', 'dusty', 'haze', 'hazy', 'fog', 'foggy', 'mist', 'misty'],
};

/** The hour each word sets; the first such word of a prompt wins. */
export const TIME_WORDS: Record<TimeOfDay, readonly string[]> = {
  day: ['day', 'daytime', 'daylight', 'noon', 'midday', 'afternoon', 'sunny', 'sunshine', 'sunlight'],
  dawn: ['dawn', 'sunrise', 'daybreak', 'morning'],
  dusk: ['dusk', 'sunset', 'twilight', 'evening', 'sundown'],
  night: [
    'night',
    'nighttime',
    'tonight',
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
  ],
};

export const CALM_WORDS = [
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
];

export const FAST_WORDS = [
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
];

export const HUE_WORDS = [
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
];
