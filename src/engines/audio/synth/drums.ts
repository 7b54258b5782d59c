/**
 * The drum kit and its grooves. Each sound is synthesised once per render (kick: a falling
 * sine; snare: a tone with noise; hats and cymbals: high-passed noise and clanging squares;
 * claps: noise bursts; 808: a long sine) and then placed on the plan's grid from step patterns,
 * with fills before section changes, a crash into loud sections and a hit to end on. The kick
 * stays in the centre; the rest of the kit spreads around it.
 */
import { biquad, filter } from '../dsp/biquad.js';
import { SAMPLE_RATE, type Pcm } from '../dsp/pcm.js';
import type { SongPlan } from '../compose/plan.js';
import { secondsAt } from '../compose/grid.js';
import { hashOf, seeded, type Random } from '../../random.js';
import type { DrumPattern, Kit } from '../compose/vocabulary.js';

type Drum = 'kick' | 'snare' | 'clap' | 'hat' | 'open' | 'ride' | 'crash' | 'rim' | 'tomHigh' | 'tomLow';

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

const PAN: Record<Drum, number> = {
  kick: 0,
  snare: 0.12,
  clap: -0.15,
  hat: 0.38,
  open: 0.38,
  ride: -0.4,
  crash: -0.45,
  rim: 0.2,
  tomHigh: 0.3,
  tomLow: -0.3,
};

const LEVEL: Record<Drum, number> = {
  kick: 1,
  snare: 0.8,
  clap: 0.7,
  hat: 0.32,
  open: 0.3,
  ride: 0.3,
  crash: 0.4,
  rim: 0.45,
  tomHigh: 0.6,
  tomLow: 0.65,
};

const VELOCITY: Record<string, number> = { X: 1, x: 0.8, o: 0.42 };

function normalise(samples: Float32Array): Float32Array {
  let peak = 0;
  for (let i = 0; i < samples.length; i += 1) peak = Math.max(peak, Math.abs(samples[i]!));
  for (let i = 0; i < samples.length; i += 1) samples[i]! /= peak || 1;
  return samples;
}

/** A sine falling from `high` to `low` Hz with time constant `tau`, dying away with time constant `decay`. */
function sweep(
  low: number,
  high: number,
  tau: number,
  decay: number,
  rate: number,
  seconds: number,
): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  const [kSweep, kDecay] = [Math.exp(-1 / (tau * rate)), Math.exp(-1 / (decay * rate))];
  let [phase, excess, amp] = [0, high - low, 1];
  for (let i = 0; i < out.length; i += 1) {
    phase += (2 * Math.PI * (low + excess)) / rate;
    out[i] = Math.sin(phase) * amp;
    excess *= kSweep;
    amp *= kDecay;
  }
  return out;
}

/** White noise with a linear attack and an exponential decay. */
function burst(random: Random, seconds: number, rate: number, decay: number, attack = 0): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  const k = Math.exp(-1 / (decay * rate));
  const rise = Math.max(1, attack * rate);
  let amp = 1;
  for (let i = 0; i < out.length; i += 1) {
    out[i] = (random() * 2 - 1) * amp * Math.min(1, i / rise + (attack === 0 ? 1 : 0));
    amp *= k;
  }
  return out;
}

/** Six detuned square waves, the 808's cymbal recipe, with noise: rides and crashes. */
function clang(random: Random, seconds: number, rate: number, decay: number, cutoff: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  const steps = [205.3, 304.4, 369.6, 522.7, 540, 800].map((f) => (f * 2.3) / rate);
  const phases = new Float64Array(steps.length);
  const k = Math.exp(-1 / (decay * rate));
  let amp = 1;
  for (let i = 0; i < out.length; i += 1) {
    let sum = 0;
    for (let j = 0; j < steps.length; j += 1) {
      const p = phases[j]! + steps[j]!;
      phases[j] = p >= 1 ? p - 1 : p;
      sum += p % 1 < 0.5 ? 1 : -1;
    }
    out[i] = (sum / 6 + 0.5 * (random() * 2 - 1)) * amp;
    amp *= k;
  }
  return filter(out, biquad('highpass', cutoff, rate));
}

function kitOf(kit: Kit, rate: number, random: Random): Record<Drum, Float32Array> {
  const electronic = kit === 'electronic' || kit === '808';
  const kick =
    kit === '808'
      ? sweep(44, 130, 0.05, 0.7, rate, 1.6)
      : electronic
        ? sweep(48, 190, 0.04, 0.3, rate, 0.6)
        : sweep(52, 160, 0.035, 0.22, rate, 0.5);
  const click = burst(random, 0.02, rate, 0.004);
  for (let i = 0; i < click.length; i += 1) kick[i]! += click[i]! * (electronic ? 0.35 : 0.25);
  const body = sweep(190, 260, 0.01, 0.06, rate, 0.35);
  const hiss = burst(random, 0.35, rate, electronic ? 0.14 : 0.12);
  filter(hiss, biquad(electronic ? 'bandpass' : 'highpass', electronic ? 3000 : 1500, rate, 0.7));
  const snare =
    kit === 'brush'
      ? filter(burst(random, 0.35, rate, 0.18, 0.015), biquad('lowpass', 5000, rate))
      : body.map((b, i) => b * (electronic ? 0.4 : 0.6) + hiss[i]! * 2.5);
  // Three quick slaps and a short room tail.
  const clap = burst(random, 0.35, rate, 0.1);
  for (let i = 0; i < clap.length; i += 1) {
    const t = i / rate;
    const slaps = t < 0.03 ? Math.exp(-((t % 0.011) / 0.004)) * 1.5 : 0.6;
    clap[i]! *= slaps;
  }
  filter(clap, biquad('bandpass', 1200, rate, 0.9));
  const hat = (decay: number, seconds: number) => {
    const out = burst(random, seconds, rate, decay);
    filter(out, biquad('highpass', 7000, rate));
    return filter(out, biquad('highpass', 7000, rate));
  };
  const rim = burst(random, 0.06, rate, 0.012);
  const click800 = sweep(800, 800, 1, 0.012, rate, 0.06);
  for (let i = 0; i < rim.length; i += 1) rim[i] = 0.5 * rim[i]! + click800[i]!;
  const tom = (base: number) => {
    const out = sweep(base, base * 1.3, 0.05, 0.2, rate, 0.5);
    const skin = burst(random, 0.5, rate, 0.03);
    for (let i = 0; i < out.length; i += 1) out[i]! += 0.15 * skin[i]!;
    return out;
  };
  const sounds: Record<Drum, Float32Array> = {
    kick,
    snare,
    clap,
    hat: hat(kit === '808' ? 0.025 : 0.035, 0.12),
    open: hat(0.25, 0.6),
    ride: clang(random, 1.5, rate, 0.6, 4000),
    crash: clang(random, 2, rate, 0.9, 3000),
    rim,
    tomHigh: tom(150),
    tomLow: tom(95),
  };
  for (const sound of Object.values(sounds)) normalise(sound);
  return sounds;
}

/** The drums of a plan as one stereo stem of `frames` samples. */
export function renderDrums(plan: SongPlan, frames: number, rate = SAMPLE_RATE): Pcm {
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  const drums = plan.drums;
  if (!drums) return { rate, channels: [left, right] };
  const random = seeded(hashOf(`drums:${drums.kit}`, plan.seed));
  const kit = kitOf(drums.kit, rate, random);
  const hit = (drum: Drum, beat: number, velocity: number) => {
    const sound = kit[drum];
    const at = Math.round((secondsAt(plan, beat) + (random() - 0.5) * 0.004) * rate);
    const gain = LEVEL[drum] * velocity * (0.92 + 0.08 * random());
    const angle = ((PAN[drum] + 1) * Math.PI) / 4;
    const [gl, gr] = [gain * Math.cos(angle) * Math.SQRT2, gain * Math.sin(angle) * Math.SQRT2];
    const from = Math.max(0, -at);
    const to = Math.min(sound.length, frames - at);
    for (let i = from; i < to; i += 1) {
      left[at + i]! += gl * sound[i]!;
      right[at + i]! += gr * sound[i]!;
    }
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
  if (drums.kit === 'lofi') {
    for (const channel of [left, right]) filter(channel, biquad('lowpass', 4500, rate));
  }
  return { rate, channels: [left, right] };
}
