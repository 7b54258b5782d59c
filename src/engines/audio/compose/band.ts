/**
 * The band of a plan: where each instrument sits in the stereo field and how loud, when it
 * comes in, which one plays the melody when nobody sings it, and how a second take or a cover
 * re-deals the roles and chord colours.
 */
import type { Random } from '../../random.js';
import type { PlanPart } from './song-plan.js';
import type { Harmony, Quality } from './theory.js';
import type { InstrumentName, PartChoice, Role } from './vocabulary.js';

/** Bass in the centre with the kick and the voice; everything else off-centre, on both sides. */
const PAN: Record<InstrumentName, number> = {
  piano: -0.35,
  guitar: 0.45,
  bass: 0,
  pad: -0.55,
  strings: 0.55,
  organ: -0.45,
  bells: 0.6,
  lead: -0.3,
  brass: 0.35,
  flute: -0.6,
};

const LEVEL_DB: Record<InstrumentName, number> = {
  piano: -4,
  guitar: -5,
  bass: -2,
  pad: -8,
  strings: -6,
  organ: -7,
  bells: -8,
  lead: -6,
  brass: -6,
  flute: -6,
};

/** Decoration waits for the fuller sections; the bass sits out only the sparest intro. */
const ENTER: Partial<Record<Role, number>> = { arp: 0.6, counter: 0.6, stabs: 0.6 };

export function partsFor(choices: readonly PartChoice[]): PlanPart[] {
  return choices.map(({ name, variant, role, stated }, i) => ({
    name,
    variant,
    role,
    pan: PAN[name],
    gain: 10 ** (LEVEL_DB[name] / 20),
    enter: stated ? 0 : name === 'bass' ? 0.3 : i >= 4 ? 0.62 : (ENTER[role] ?? 0),
  }));
}

const MELODIC: InstrumentName[] = [
  'lead',
  'flute',
  'brass',
  'bells',
  'guitar',
  'piano',
  'strings',
  'organ',
  'pad',
];

/** The part that plays unsung melody notes: the most singing-like instrument in the band. */
export function melodyPartOf(parts: readonly PlanPart[]): InstrumentName | null {
  return MELODIC.find((name) => parts.some((p) => p.name === name)) ?? null;
}

const ALTERNATIVES: Record<InstrumentName, Role[]> = {
  piano: ['pulse', 'arpeggio', 'syncopated', 'whole', 'offbeat'],
  guitar: ['strum', 'picking', 'chops'],
  strings: ['whole', 'counter'],
  organ: ['whole', 'offbeat', 'pulse'],
  lead: ['arp', 'counter'],
  brass: ['stabs', 'counter', 'whole'],
  flute: ['counter', 'arp'],
  bells: ['arp', 'counter'],
  bass: ['eighths', 'root', 'rootfifth', 'octaves'],
  pad: ['whole'],
};

/** The same band with other figures: each part that has another fitting role takes one. */
export function rearrange(parts: readonly PlanPart[], random: Random): PlanPart[] {
  return parts.map((part) => {
    const options = ALTERNATIVES[part.name].filter((role) => role !== part.role);
    if (options.length === 0 || part.role === 'sub') return part;
    const extra: Role[] =
      part.name === 'guitar' && part.variant === 'electric' && part.role !== 'power' ? ['power'] : [];
    const all = [...options, ...extra];
    return { ...part, role: all[Math.floor(random() * all.length)]! };
  });
}

/** A chord's colour in another harmony: sevenths for jazz, dominant sevenths for blues, triads otherwise. */
export function reflavour(quality: Quality, harmony: Harmony, dominant: boolean): Quality {
  if (harmony === 'jazz') {
    if (quality === 'maj') return dominant ? '7' : 'maj7';
    if (quality === 'min') return 'm7';
    if (quality === 'dim') return 'm7b5';
    return quality;
  }
  if (harmony === 'blues') return quality === 'maj' || quality === 'maj7' ? '7' : quality;
  const triad: Partial<Record<Quality, Quality>> = {
    maj7: 'maj',
    '7': 'maj',
    add9: 'maj',
    m7: 'min',
    m7b5: 'dim',
  };
  return triad[quality] ?? quality;
}
