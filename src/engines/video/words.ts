/**
 * What a prompt asks of a scene: which forms to draw and how many of each subject, what falls or
 * drifts through the air, the hour of the day, how fast things move, and the hues a form implies
 * when the prompt names none. The negative prompt takes forms and weather out. Only what the
 * words name is drawn, and what it cannot be without: a beach brings its sea, a boat or a ship
 * water to float on, lily pads a pond, a pond the land around it, a car a road, and a scene with
 * no ground of its own gets plain land (unless it is the sky alone, outer space or abstract).
 */
import {
  CALM_WORDS,
  FAST_WORDS,
  FORMS,
  HUE_WORDS,
  isGround,
  MANY,
  SCENERY_WORDS,
  SKY_WORDS,
  SUBJECT_WORDS,
  SUBJECTS,
  TIME_WORDS,
  TIMES,
  WEATHER_WORDS,
  WEATHERS,
  type Form,
  type Subject,
  type TimeOfDay,
  type Weather,
} from './vocabulary.js';
import { NUMBER_WORDS } from '../artwork/index.js';

export { FORMS, SUBJECTS, WEATHERS, type Form, type Subject, type TimeOfDay, type Weather };

const isSubject = (form: Form): form is Subject => (SUBJECTS as readonly Form[]).includes(form);

/** A word's regular plurals ("hills", "beaches"); irregular ones are listed with the words. */
const pluralsOf = (words: readonly string[]) => words.flatMap((w) => [`${w}s`, `${w}es`]);

/** The words that name several of a subject. */
const manyOf = (subject: Subject) => [
  ...SUBJECT_WORDS[subject].many,
  ...pluralsOf(SUBJECT_WORDS[subject].one),
];

/** Every word that names a form, singular or plural. */
const wordsFor = (form: Form): readonly string[] =>
  isSubject(form)
    ? [...SUBJECT_WORDS[form].one, ...manyOf(form)]
    : [...SCENERY_WORDS[form], ...pluralsOf(SCENERY_WORDS[form])];

/** What a form brings along when the prompt says nothing of the weather. */
const FORM_WEATHER: Partial<Record<Form, Weather>> = {
  flames: 'embers',
  volcano: 'embers',
  trunks: 'leaves',
  blossoms: 'fireflies',
  planet: 'dust',
  orbs: 'dust',
};

/** Hue words handed to the palette for a form, when the prompt names no colour itself. */
const FORM_HUES: Partial<Record<Form, string>> = {
  seabed: 'blue teal cyan',
  ridges: 'blue violet',
  dunes: 'gold orange',
  waves: 'blue teal cyan',
  river: 'green',
  pond: 'green',
  land: 'green',
  snowfield: 'blue cyan',
  room: 'amber brown',
  blocks: 'indigo amber',
  trunks: 'green emerald',
  blossoms: 'pink green',
  flames: 'orange red amber',
  volcano: 'orange red',
  clouds: 'blue',
  planet: 'indigo violet',
  orbs: 'magenta cyan',
};

/** Banning the first bans the second too: no trees means no forest. */
const ALSO_BANNED: Partial<Record<Form, Form>> = { tree: 'trunks' };

/** Water a boat or a ship can float on. */
const WATERS: readonly Form[] = ['waves', 'river', 'pond'];
/** Scenes of these have no ground unless one is named: the sky, outer space, the abstract. */
const GROUNDLESS: readonly Form[] = ['clouds', 'planet', 'orbs'];

export interface PromptReading {
  /** Forms to draw, in the order of FORMS (back to front). */
  forms: Form[];
  /** How many of each subject drawn. */
  counts: Partial<Record<Subject, number>>;
  /** Forms the negative prompt names: never drawn. */
  bannedForms: Form[];
  weather: Weather[];
  /** Weather the negative prompt names. */
  bannedWeather: Weather[];
  /** The hour the words name; night for a moon without one, day otherwise. */
  time: TimeOfDay;
  /** Motion speed the words ask for: below 1 calm, above 1 energetic. */
  tempo: number;
  /** Hue words for the palette when the prompt has none ('' otherwise). */
  impliedHues: string;
  /** Whether the prompt names colours itself. */
  huesNamed: boolean;
}

const wordsOf = (text: string | undefined) => (text ?? '').toLowerCase().match(/\p{L}+/gu) ?? [];

/** The hour of the first word that names one. */
function timeOf(words: readonly string[]): TimeOfDay | undefined {
  for (const word of words) {
    const time = TIMES.find((t) => TIME_WORDS[t].includes(word));
    if (time) return time;
  }
  return undefined;
}

/**
 * Forms the words name, with what they need to stand on or float in, and the grounds the
 * prompt's other things need (`implied`): a lighthouse stands on a rocky coast by the sea.
 */
function formsOf(words: Set<string>, banned: readonly Form[], implied: readonly Form[]): Form[] {
  const names = (form: Form) => wordsFor(form).some((w) => words.has(w));
  const named = new Set(FORMS.filter((f) => names(f) && !banned.includes(f)));
  const allowed = (form: Form) => !banned.includes(form);
  // A place the words name wins over one a thing implies: ducks in a park stay in the park.
  const grounded = [...named].some(isGround);
  const seaOnly = grounded && [...named].filter(isGround).every((f) => f === 'waves');
  for (const form of implied) {
    // A beach only where the words name the sea alone; any other ground only where they name none.
    if ((form === 'beach' ? seaOnly : !grounded) && allowed(form)) named.add(form);
  }
  if (named.has('lighthouse') && ![...named].some(isGround) && allowed('waves')) named.add('waves');
  if (named.has('beach') && allowed('waves')) named.add('waves');
  if ((named.has('boat') || named.has('ship')) && !WATERS.some((w) => named.has(w)) && allowed('waves'))
    named.add('waves');
  // Lily pads grow on still water: a pond, where the words name no water.
  if (named.has('lilypads') && !WATERS.some((w) => named.has(w)) && allowed('pond')) named.add('pond');
  if (named.has('car') && !named.has('road') && !named.has('blocks') && allowed('road')) named.add('road');
  // A road runs through land, and a pond lies in it, unless the words name another ground.
  for (const within of ['road', 'pond'] as const)
    if (named.has(within) && ![...named].some((f) => isGround(f) && f !== within) && allowed('land'))
      named.add('land');
  const groundless = SKY_WORDS.some((w) => words.has(w)) || [...named].some((f) => GROUNDLESS.includes(f));
  if (!groundless && ![...named].some(isGround) && allowed('land')) named.add('land');
  return FORMS.filter((f) => named.has(f));
}

/**
 * How many of a subject the words ask for: one for a singular, for a plural the number said
 * just before it ("two boats", "a few birds") or a small crowd of its own.
 */
function countOf(subject: Subject, list: readonly string[]): number {
  const many = manyOf(subject);
  const at = list.findIndex((w) => many.includes(w));
  if (at < 0) return 1;
  const said = list.slice(Math.max(0, at - 3), at).flatMap((w) => NUMBER_WORDS[w] ?? []);
  return said.at(-1) ?? MANY[subject];
}

export function readPrompt(
  prompt: string,
  negativePrompt?: string,
  implied: readonly Form[] = [],
  impliedWeather: readonly Weather[] = [],
): PromptReading {
  const list = wordsOf(prompt);
  const words = new Set(list);
  const unwanted = new Set(wordsOf(negativePrompt));
  const unwantedForms = FORMS.filter((f) => wordsFor(f).some((w) => unwanted.has(w)));
  const bannedForms = FORMS.filter(
    (f) => unwantedForms.includes(f) || unwantedForms.some((u) => ALSO_BANNED[u] === f),
  );
  const forms = formsOf(words, bannedForms, implied);
  const counts: Partial<Record<Subject, number>> = {};
  for (const subject of SUBJECTS) if (forms.includes(subject)) counts[subject] = countOf(subject, list);
  const bannedWeather = WEATHERS.filter((w) => WEATHER_WORDS[w].some((word) => unwanted.has(word)));
  const named = WEATHERS.filter((w) => WEATHER_WORDS[w].some((word) => words.has(word)));
  const brought = [...forms.flatMap((f) => FORM_WEATHER[f] ?? []), ...impliedWeather];
  const weather = [...new Set([...named, ...brought])].filter((w) => !bannedWeather.includes(w));
  // In winter the plain land lies under snow.
  if (weather.includes('snow') && forms.includes('land') && !bannedForms.includes('snowfield'))
    forms.splice(forms.indexOf('land'), 1, 'snowfield');
  const calm = list.filter((w) => CALM_WORDS.includes(w)).length;
  const fast = list.filter((w) => FAST_WORDS.includes(w)).length;
  const tempo = calm > fast ? 0.5 : fast > calm ? 1.8 : 1;
  const time = timeOf(list) ?? (forms.includes('moon') ? 'night' : 'day');
  const huesNamed = list.some((w) => HUE_WORDS.includes(w));
  // The first form in FORM_HUES's order: grounds before the sky.
  const hinted = (Object.keys(FORM_HUES) as Form[]).find((f) => forms.includes(f));
  return {
    forms,
    counts,
    bannedForms,
    weather,
    bannedWeather,
    time,
    tempo,
    impliedHues: huesNamed || !hinted ? '' : (FORM_HUES[hinted] ?? ''),
    huesNamed,
  };
}
