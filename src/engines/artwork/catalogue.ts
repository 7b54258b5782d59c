/**
 * The artwork library: the Noto emoji drawings (@iconify-json/noto, SVG bodies on a 128-unit
 * square) with the names, groups and keywords Emojibase gives each emoji (emojibase-data), so a
 * noun finds its drawing by name ("lighthouse"), by a word of its label ("tree" → "deciduous
 * tree") or by a keyword ("yacht" → "sailboat"). Both packages are read once, on first use.
 */
import { createRequire } from 'node:module';

export interface Artwork {
  /** The drawing's name in the icon set, e.g. "sailboat". */
  name: string;
  label: string;
  /** Emojibase group and subgroup, e.g. "travel-places" and "transport-water". */
  group: string;
  subgroup: string;
}

interface IconSet {
  icons: Record<string, { body: string }>;
  aliases?: Record<string, { parent: string }>;
}
interface Emoji {
  label: string;
  hexcode: string;
  tags?: string[];
  group?: number;
  subgroup?: number;
}
interface Groups {
  groups: Record<string, string>;
  subgroups: Record<string, string>;
}

/**
 * How far a group is from what a scene is made of: things come before faces, symbols and
 * hand gestures, so "star" finds the star rather than a face with starry eyes.
 */
const GROUP_PENALTY: Record<string, number> = {
  'animals-nature': 0,
  'travel-places': 0,
  'food-drink': 0,
  objects: 0,
  activities: 0.5,
  'people-body': 1.5,
  symbols: 3,
  'smileys-emotion': 3,
  component: 9,
  flags: 9,
};

/** How well a word names an artwork: its name, the head of its label, any label word, a keyword. */
const BY_NAME = 0;
const BY_HEAD = 1;
const BY_LABEL = 2;
const BY_KEYWORD = 3;

/**
 * Common words whose best drawing the keywords miss or rank low: a plain "car" is an automobile,
 * not a tram car; a "tree" a deciduous one. Checked before the index.
 */
const PREFERRED: Readonly<Record<string, string>> = {
  sea: 'water-wave',
  ocean: 'water-wave',
  dusk: 'sunset',
  sunset: 'sunset',
  dawn: 'sunrise',
  sunrise: 'sunrise',
  night: 'night-with-stars',
  car: 'automobile',
  boat: 'sailboat',
  kayak: 'canoe',
  tree: 'deciduous-tree',
  moon: 'crescent-moon',
  flower: 'blossom',
  plane: 'airplane',
  aeroplane: 'airplane',
  jet: 'airplane',
  train: 'locomotive',
  bike: 'bicycle',
  city: 'cityscape',
  puppy: 'dog',
  kitten: 'cat',
  coffee: 'hot-beverage',
  cup: 'hot-beverage',
  tea: 'teacup-without-handle',
  rose: 'rose',
  bus: 'bus',
  mountain: 'snow-capped-mountain',
  volcano: 'volcano',
  island: 'desert-island',
  star: 'star',
  wave: 'water-wave',
  cloud: 'cloud',
  balloon: 'balloon',
  robot: 'robot',
  dragon: 'dragon',
  bear: 'bear',
  book: 'open-book',
  clock: 'mantelpiece-clock',
  lamp: 'light-bulb',
  candle: 'candle',
  lantern: 'red-paper-lantern',
  guitar: 'guitar',
  piano: 'musical-keyboard',
  sofa: 'couch-and-lamp',
  couch: 'couch-and-lamp',
  bed: 'bed',
  chair: 'chair',
  window: 'window',
  door: 'door',
  key: 'old-key',
  heart: 'red-heart',
  fire: 'fire',
  snowflake: 'snowflake',
  rainbow: 'rainbow',
  ghost: 'ghost',
  skull: 'skull',
  alien: 'alien',
  ufo: 'flying-saucer',
  spaceship: 'rocket',
  satellite: 'satellite',
  whale: 'spouting-whale',
  fish: 'fish',
  dinosaur: 'sauropod',
  monkey: 'monkey',
  cow: 'cow',
  pig: 'pig',
  horse: 'horse',
  rabbit: 'rabbit',
  bunny: 'rabbit',
  mouse: 'mouse',
  dog: 'dog',
  cat: 'cat',
  bird: 'bird',
  cake: 'birthday-cake',
  pizza: 'pizza',
  apple: 'red-apple',
  camera: 'camera',
  phone: 'mobile-phone',
  computer: 'laptop',
  sword: 'crossed-swords',
  crown: 'crown',
  gift: 'wrapped-gift',
  present: 'wrapped-gift',
  gem: 'gem-stone',
  diamond: 'gem-stone',
  mushroom: 'mushroom',
  leaf: 'maple-leaf',
  tent: 'tent',
  bridge: 'bridge-at-night',
  church: 'church',
  temple: 'hindu-temple',
  stadium: 'stadium',
  factory: 'factory',
  school: 'school',
  hospital: 'hospital',
  shop: 'convenience-store',
  store: 'convenience-store',
  bank: 'bank',
  hotel: 'hotel',
  office: 'office-building',
  skyscraper: 'office-building',
  tower: 'tokyo-tower',
  fountain: 'fountain',
  carousel: 'carousel-horse',
  ferris: 'ferris-wheel',
  ship: 'ship',
  yacht: 'sailboat',
  submarine: 'diving-mask',
  helicopter: 'helicopter',
  tractor: 'tractor',
  truck: 'delivery-truck',
  motorcycle: 'motorcycle',
  motorbike: 'motorcycle',
  scooter: 'motor-scooter',
  taxi: 'taxi',
  police: 'police-car',
  ambulance: 'ambulance',
  rocket: 'rocket',
  planet: 'ringed-planet',
  earth: 'globe-showing-europe-africa',
  globe: 'globe-showing-europe-africa',
  comet: 'comet',
  sunflower: 'sunflower',
  tulip: 'tulip',
  cactus: 'cactus',
  palm: 'palm-tree',
  pine: 'evergreen-tree',
  oak: 'deciduous-tree',
  person: 'person-standing',
  man: 'man-standing',
  woman: 'woman-standing',
  child: 'child',
  kid: 'child',
  baby: 'baby',
  king: 'prince',
  queen: 'princess',
  knight: 'horse-racing',
  wizard: 'mage',
  witch: 'mage',
  fairy: 'fairy',
  mermaid: 'merperson',
  vampire: 'vampire',
  zombie: 'zombie',
  ninja: 'ninja',
  pirate: 'pirate-flag',
  astronaut: 'astronaut',
  chef: 'cook',
  doctor: 'health-worker',
  dancer: 'woman-dancing',
  runner: 'person-running',
  surfer: 'person-surfing',
  skier: 'skier',
  snowman: 'snowman',
};

export interface Catalogue {
  /** The artwork a singular noun names best, if any, and how closely ("name": it is its name). */
  find(word: string): (Artwork & { how: 'name' | 'label' | 'keyword' }) | undefined;
  /** The drawing's SVG body (128 × 128 units). */
  bodyOf(name: string): string;
  /** How many drawings, and how many words reach one. */
  size: { artworks: number; words: number };
}

function build(): Catalogue {
  const require = createRequire(import.meta.url);
  const set = require('@iconify-json/noto/icons.json') as IconSet;
  const chars = require('@iconify-json/noto/chars.json') as Record<string, string>;
  const emojis = require('emojibase-data/en/data.json') as Emoji[];
  const meta = require('emojibase-data/meta/groups.json') as Groups;
  const best = new Map<string, { art: Artwork; score: number }>();
  const offer = (word: string, art: Artwork, score: number) => {
    const held = best.get(word);
    if (!held || score < held.score || (score === held.score && art.label.length < held.art.label.length))
      best.set(word, { art, score });
  };
  const artworks = new Map<string, Artwork>();
  for (const emoji of emojis) {
    const hex = emoji.hexcode.toLowerCase();
    const name = chars[hex] ?? chars[hex.replace(/-fe0f/g, '')];
    if (!name || !set.icons[name]) continue;
    const label = emoji.label.toLowerCase();
    const group = meta.groups[String(emoji.group)] ?? '';
    const art: Artwork = { name, label, group, subgroup: meta.subgroups[String(emoji.subgroup)] ?? '' };
    artworks.set(name, art);
    const penalty = GROUP_PENALTY[group] ?? 1;
    const words = label.split(/[^a-z]+/).filter(Boolean);
    offer(name, art, BY_NAME + penalty);
    offer(words.join('-'), art, BY_NAME + penalty);
    if (words.length > 0) offer(words.at(-1)!, art, BY_HEAD + penalty + 0.1 * words.length);
    for (const word of words) offer(word, art, BY_LABEL + penalty);
    for (const tag of emoji.tags ?? []) offer(tag.toLowerCase(), art, BY_KEYWORD + penalty);
  }
  // Noto's own drawings that no emoji stands for (a lighthouse, a few more), by name alone.
  const categories = (require('@iconify-json/noto/metadata.json') as { categories: Record<string, string[]> })
    .categories;
  for (const [category, names] of Object.entries(categories)) {
    const group = category.toLowerCase().replace(/ & /g, '-');
    for (const name of names) {
      if (artworks.has(name) || /tone|^\d|flag/.test(name) || !set.icons[name]) continue;
      const art: Artwork = { name, label: name.replace(/-/g, ' '), group, subgroup: '' };
      artworks.set(name, art);
      offer(name, art, BY_NAME + (GROUP_PENALTY[group] ?? 1));
    }
  }
  const how = (score: number): 'name' | 'label' | 'keyword' =>
    score < BY_HEAD ? 'name' : score < BY_KEYWORD ? 'label' : 'keyword';
  return {
    find: (word) => {
      const preferred = artworks.get(PREFERRED[word] ?? '');
      if (preferred) return { ...preferred, how: 'name' };
      const held = best.get(word);
      return held && { ...held.art, how: how(held.score - (GROUP_PENALTY[held.art.group] ?? 1)) };
    },
    bodyOf: (name) => {
      const icon = set.icons[name] ?? set.icons[set.aliases?.[name]?.parent ?? ''];
      if (!icon) throw new Error(`no drawing named ${name} in @iconify-json/noto`);
      return icon.body;
    },
    size: { artworks: artworks.size, words: best.size },
  };
}

let loaded: Catalogue | undefined;

export function catalogue(): Catalogue {
  loaded ??= build();
  return loaded;
}
