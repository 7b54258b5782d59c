/**
 * The drums and their grooves, played on one of the soundfont's kits on the percussion channel:
 * each groove is step patterns on the plan's grid, with fills before section changes, a crash
 * into loud sections and a hit to end on. The kit's own stereo image places each drum.
 */
import { biquad, filter } from '../dsp/biquad.js';
import { SAMPLE_RATE, type Pcm } from '../dsp/pcm.js';
import type { SongPlan } from '../compose/plan.js';
import { secondsAt } from '../compose/grid.js';
import { hashOf, seeded } from '../../random.js';
import type { DrumPattern } from '../compose/vocabulary.js';
import { play } from './fluidsynth.js';
import { DRUM_KEYS, KITS, type Drum } from './general-midi.js';
import type { MidiEvent } from './midi-file.js';

const PERCUSSION = 9;
/** Drums ring out on their own: the note off only closes the MIDI note. */
const HIT_SECONDS = 0.1;

/** Sixteen steps a 4/4 bar (twelve for 3/4): X accent, x hit, o ghost, . rest. */
const PATTERNS: Record<DrumPattern, Partial<Record<Drum, string>>> = {
  backbeat: { kick: 'x.....x.x.......', snare: '....x.......x...', hat: 'x.x.x.x.x.x.x.x.' },
  rock: { kick: 'x.......x.x.....', snare: '....X.......X...', hat: 'x.x.x.x.x.x.x.x.' },
  four: {
    kick: 'x...x...x...x...',
    clap: '....x.......x...',
    open: '..x...x...x...x.',
    hat: '.o.o.o.o.o.o.o.o',
  },
  disco: {
    kick: 'x...x...x...x...',
    snare: '....x.......x...',
    open: '..x...x...x...x.',
    hat: 'x...x...x...x...',
  },
  trap: { kick: 'x......x..x.....', clap: '........x.......', hat: 'x.x.x.x.xxx.x.xx' },
  boombap: { kick: 'x......x..x.....', snare: '....x.......x...', hat: 'x.x.x.x.x.x.x.x.' },
  swing: {
    ride: 'x...x.x.x...x.x.',
    hat: '....x.......x...',
    kick: 'o...........o...',
    snare: '......o.......o.',
  },
  shuffle: { kick: 'x.......x.......', snare: '....x.......x...', hat: 'x.x.x.x.x.x.x.x.' },
  funk: { kick: 'x..x..x...x..x..', snare: '....x..o.o..x..o', hat: 'XoxoXoxoXoxoXoxo' },
  onedrop: { kick: '........x.......', rim: '........x.......', hat: 'x.x.x.x.x.x.x.x.' },
  bossa: { kick: 'x..xx..xx..xx..x', rim: 'x..x..x...x..x..', hat: 'oooooooooooooooo' },
  dembow: { kick: 'x...x...x...x...', snare: '...x..x....x..x.', hat: 'x.x.x.x.x.x.x.x.' },
  metal: { kick: 'xxxxxxxxxxxxxxxx', snare: '....X.......X...', ride: 'x...x...x...x...' },
  breakbeat: { kick: 'x.........x.....', snare: '....x..o.o..x...', hat: 'x.x.x.x.x.x.x.x.' },
  waltz: { kick: 'x...........', snare: '....x...x...', hat: 'x.x.x.x.x.x.' },
  ballad: { kick: 'x.......x.......', snare: '....x.......x...', hat: 'o.o.o.o.o.o.o.o.' },
  train: { kick: 'x.......x.......', snare: 'o.o.x.o.o.o.x.o.', hat: '..x...x...x...x.' },
};

const VELOCITY: Record<string, number> = { X: 1, x: 0.8, o: 0.42 };

/** The drums of a plan as one stereo stem of `frames` samples. */
export async function renderDrums(plan: SongPlan, frames: number, rate = SAMPLE_RATE): Promise<Pcm> {
  const drums = plan.drums;
  if (!drums) return { rate, channels: [new Float32Array(frames), new Float32Array(frames)] };
  const random = seeded(hashOf(`drums:${drums.kit}`, plan.seed));
  const kit = KITS[drums.kit];
  const midi: MidiEvent[] = [{ seconds: 0, type: 'program', channel: PERCUSSION, program: kit }];
  const hit = (drum: Drum, beat: number, velocity: number) => {
    // A drummer's few milliseconds either side of the grid, and a little less or more force.
    const seconds = Math.max(0, secondsAt(plan, beat) + (random() - 0.5) * 0.004);
    const key = DRUM_KEYS[drum];
    const force = 127 * velocity * (0.92 + 0.08 * random());
    midi.push(
      { seconds, type: 'on', channel: PERCUSSION, key, velocity: force },
      { seconds: seconds + HIT_SECONDS, type: 'off', channel: PERCUSSION, key },
    );
  };
  const pattern = PATTERNS[drums.pattern];
  const steps = plan.beatsPerBar * 4;
  const w = plan.weirdness;
  plan.sections.forEach((section, index) => {
    for (let bar = section.bar; bar < section.bar + section.bars && bar < plan.bars; bar += 1) {
      const beat = bar * plan.beatsPerBar;
      if (plan.ending && bar === plan.bars - 1) {
        hit('kick', beat, 1);
        hit('crash', beat, 1);
        continue;
      }
      const quiet = section.energy < 0.45;
      const fill =
        bar === section.bar + section.bars - 1 &&
        section.bars >= 4 &&
        index < plan.sections.length - 1 &&
        !quiet;
      if (bar === section.bar && section.energy >= 0.8 && bar > 0) hit('crash', beat, 0.9);
      for (const [drum, steps16] of Object.entries(pattern) as [Drum, string][]) {
        for (let step = 0; step < steps; step += 1) {
          let velocity = VELOCITY[steps16[step % steps16.length]!] ?? 0;
          if (random() < w * 0.1) velocity = 0;
          if (velocity === 0) continue;
          if (
            quiet &&
            !(drum === 'hat' || drum === 'ride' || drum === 'rim' || (drum === 'kick' && step === 0))
          )
            continue;
          if (fill && step >= steps - 4 && drum !== 'hat' && drum !== 'ride') continue;
          hit(drum, beat + step / 4, velocity * (quiet ? 0.7 : 0.85 + 0.15 * section.energy));
        }
        if (random() < w * 0.5)
          hit(random() < 0.5 ? 'rim' : 'tomHigh', beat + Math.floor(random() * steps) / 4, 0.6);
      }
      if (fill) {
        const toms: Drum[] =
          drums.kit === 'electronic' || drums.kit === '808'
            ? ['snare', 'snare', 'clap', 'snare']
            : ['tomHigh', 'tomHigh', 'tomLow', 'tomLow'];
        toms.forEach((drum, k) => hit(drum, beat + (steps - 4 + k) / 4, 0.6 + 0.1 * k));
      }
    }
  });
  const { left, right } = await play({ kit: true, program: kit }, midi, frames, rate);
  // Lo-fi drums are the room kit, dulled as a worn tape would.
  if (drums.kit === 'lofi')
    for (const channel of [left, right]) filter(channel, biquad('lowpass', 4500, rate));
  return { rate, channels: [left, right] };
}
