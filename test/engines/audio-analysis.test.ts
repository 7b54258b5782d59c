/**
 * Pitch, tempo and key analysis and the time-stretch and pitch-shift built on them, on synthetic
 * signals whose answers are known: tones, glides, vibrato, click tracks, drum loops and chord
 * progressions.
 */
import { describe, expect, it } from 'vitest';
import { chroma, eachSpectrum, estimateKey, PITCH_CLASSES } from '../../src/engines/audio/analysis/key.js';
import { frames, mix, mono, silence, type Pcm } from '../../src/engines/audio/dsp/pcm.js';
import { medianPitch, pitchTrack } from '../../src/engines/audio/analysis/pitch.js';
import { pitchShift, timeStretch } from '../../src/engines/audio/dsp/stretch.js';
import { estimateTempo, onsetEnvelope } from '../../src/engines/audio/analysis/tempo.js';
import { seeded } from '../../src/engines/random.js';

const RATE = 44_100;

/** A voice-like tone: `frequency(t)` in Hz, with a few harmonics, in both channels. */
function tone(seconds: number, frequency: (t: number) => number, amplitude = 0.3): Pcm {
  const out = silence(seconds);
  const [left, right] = out.channels as [Float32Array, Float32Array];
  let phase = 0;
  for (let i = 0; i < left.length; i += 1) {
    phase += (2 * Math.PI * frequency(i / RATE)) / RATE;
    const value = amplitude * (Math.sin(phase) + 0.4 * Math.sin(2 * phase) + 0.2 * Math.sin(3 * phase));
    left[i] = value;
    right[i] = value;
  }
  return out;
}

/** Clicks (2 ms decaying noise bursts) every beat at `bpm`, from `start` seconds. */
function clickTrack(seconds: number, bpm: number, start = 0): Pcm {
  const out = silence(seconds);
  const random = seeded(bpm);
  for (let at = start; at < seconds; at += 60 / bpm) {
    const from = Math.round(at * RATE);
    for (let i = 0; i < 0.01 * RATE && from + i < frames(out); i += 1) {
      const value = 0.8 * Math.exp(-i / (0.002 * RATE)) * (random() * 2 - 1);
      for (const channel of out.channels) channel[from + i] = value;
    }
  }
  return out;
}

/** A drum loop at `bpm`: kick on 1 and 3, snare on 2 and 4, hats on every eighth note. */
function drumLoop(seconds: number, bpm: number, start = 0): Pcm {
  const out = silence(seconds);
  const [left, right] = out.channels as [Float32Array, Float32Array];
  const random = seeded(Math.round(bpm * 10));
  const beat = 60 / bpm;
  const add = (at: number, length: number, voice: (t: number) => number) => {
    const from = Math.round(at * RATE);
    for (let i = 0; i < length * RATE && from + i < left.length; i += 1) {
      const value = voice(i / RATE);
      left[from + i]! += value;
      right[from + i]! += value;
    }
  };
  for (let b = 0; start + b * beat < seconds; b += 1) {
    const at = start + b * beat;
    if (b % 2 === 0) {
      add(
        at,
        0.3,
        (t) => 0.8 * Math.exp(-t * 12) * Math.sin(2 * Math.PI * (50 * t + 2.5 * (1 - Math.exp(-t * 30)))),
      );
    } else {
      add(
        at,
        0.2,
        (t) => 0.4 * Math.exp(-t * 25) * (random() * 2 - 1 + 0.6 * Math.sin(2 * Math.PI * 190 * t)),
      );
    }
    for (const half of [0, 0.5])
      add(at + half * beat, 0.05, (t) => 0.1 * Math.exp(-t * 80) * (random() * 2 - 1));
  }
  return out;
}

/** Chords of additive-synthesis notes (MIDI numbers), two seconds each, with the root an octave under. */
function progression(chords: number[][]): Pcm {
  const seconds = 2;
  const out = silence(seconds * chords.length);
  const [left, right] = out.channels as [Float32Array, Float32Array];
  chords.forEach((chord, c) => {
    const from = Math.round(c * seconds * RATE);
    for (const midi of [chord[0]! - 12, ...chord]) {
      const frequency = 440 * 2 ** ((midi - 69) / 12);
      for (let i = 0; i < seconds * RATE; i += 1) {
        const t = i / RATE;
        let value = 0;
        for (let h = 1; h <= 5; h += 1) value += Math.sin(2 * Math.PI * h * frequency * t) / h;
        const envelope = Math.min(1, t / 0.01) * Math.exp(-t * 0.8) * 0.08;
        left[from + i]! += envelope * value;
        right[from + i]! += envelope * value;
      }
    }
  });
  return out;
}

const HOP = 0.01;

describe('pitch tracking', () => {
  it('follows a steady tone', () => {
    const track = pitchTrack(mono(tone(2, () => 220)), RATE);
    const voiced = track.filter((f0) => f0 > 0).length / track.length;
    console.log(
      `220 Hz tone: median ${medianPitch(track).toFixed(2)} Hz, ${(voiced * 100).toFixed(0)}% voiced`,
    );
    expect(Math.abs(medianPitch(track) / 220 - 1)).toBeLessThan(0.002);
    expect(voiced).toBeGreaterThan(0.95);
    // At a rate low enough to be read without halving, and with a hop of 20 ms.
    const narrow = Float32Array.from(
      { length: 16_000 },
      (_, i) => 0.3 * Math.sin((2 * Math.PI * 180 * i) / 16_000),
    );
    const coarse = pitchTrack(narrow, 16_000, { hopSeconds: 0.02 });
    expect(coarse.length).toBe(50);
    expect(Math.abs(medianPitch(coarse) / 180 - 1)).toBeLessThan(0.002);
  });

  it('follows a glide and a vibrato', () => {
    // An exponential glide from 150 to 600 Hz over 2 s, and 330 Hz with a 5.5 Hz vibrato of 3%.
    const glide = (t: number) => 150 * 4 ** (t / 2);
    const vibrato = (t: number) => 330 * (1 + 0.03 * Math.sin(2 * Math.PI * 5.5 * t));
    for (const [name, frequency] of [
      ['glide', glide],
      ['vibrato', vibrato],
    ] as const) {
      const track = pitchTrack(mono(tone(2, frequency)), RATE);
      let worst = 0;
      let voiced = 0;
      // Away from the ends, where frames reach past the signal.
      for (let f = 5; f < track.length - 5; f += 1) {
        if (track[f]! === 0) continue;
        voiced += 1;
        worst = Math.max(worst, Math.abs(track[f]! / frequency(f * HOP) - 1));
      }
      console.log(
        `${name}: worst error ${(worst * 100).toFixed(2)}%, ${voiced} of ${track.length - 10} frames voiced`,
      );
      expect(worst).toBeLessThan(0.02);
      expect(voiced / (track.length - 10)).toBeGreaterThan(0.95);
    }
    const swing = pitchTrack(mono(tone(2, vibrato)), RATE).filter((f0) => f0 > 0);
    const range = Math.max(...swing) / Math.min(...swing);
    expect(range).toBeGreaterThan(1.05);
    expect(Math.abs(medianPitch(swing) / 330 - 1)).toBeLessThan(0.01);
  });

  it('calls silence and noise unvoiced', () => {
    const quiet = pitchTrack(new Float32Array(RATE), RATE);
    expect(quiet.length).toBe(100);
    expect(quiet.every((f0) => f0 === 0)).toBe(true);
    expect(medianPitch(quiet)).toBe(0);
    const random = seeded(4);
    const noise = Float32Array.from({ length: RATE }, () => 0.3 * (random() * 2 - 1));
    const voiced = pitchTrack(noise, RATE).filter((f0) => f0 > 0).length;
    console.log(`white noise: ${voiced} of 100 frames voiced`);
    expect(voiced).toBeLessThan(10);
  });

  // Its speed is measured by bench/music.mjs (pitch track), not timed here.
  it('tracks a minute of vocal-range audio, a frame each 10 ms', () => {
    const long = mono(tone(60, (t) => 200 + 50 * Math.sin(t)));
    const track = pitchTrack(long, RATE);
    expect(track.length).toBe(6000);
  });
});

describe('tempo', () => {
  it('puts onsets where the clicks are', () => {
    const { strength, frameRate, offset } = onsetEnvelope(clickTrack(4, 120, 0.25));
    // The strongest frame within each beat should sit on its click.
    for (let beat = 0; beat < 7; beat += 1) {
      const click = 0.25 + beat * 0.5;
      let best = 0;
      for (let f = 0; f < strength.length; f += 1) {
        const t = offset + f / frameRate;
        if (Math.abs(t - click) < 0.2 && strength[f]! > (strength[best] ?? 0)) best = f;
      }
      expect(Math.abs(offset + best / frameRate - click)).toBeLessThan(0.02);
    }
  });

  it('measures drum loops at 90, 120 and 140 BPM within 2 BPM', () => {
    for (const bpm of [90, 120, 140]) {
      const start = 0.3;
      const tempo = estimateTempo(drumLoop(12, bpm, start));
      const period = 60 / tempo.bpm;
      const phaseError = Math.abs(((tempo.firstBeat - start + period / 2) % period) - period / 2);
      console.log(
        `${bpm} BPM loop: ${tempo.bpm} BPM, confidence ${tempo.confidence.toFixed(2)}, ` +
          `first beat ${tempo.firstBeat.toFixed(3)} s (phase error ${(phaseError * 1000).toFixed(0)} ms)`,
      );
      expect(Math.abs(tempo.bpm - bpm)).toBeLessThanOrEqual(2);
      expect(tempo.confidence).toBeGreaterThan(0.2);
      expect(phaseError).toBeLessThan(0.03);
    }
  });

  it('has no confidence in silence', () => {
    expect(estimateTempo(silence(5)).confidence).toBe(0);
  });
});

describe('key', () => {
  it('reads the spectrum and the chroma of a C major chord', () => {
    const a = tone(1, () => 1000).channels[0]!;
    let peakBin = -1;
    eachSpectrum(a, 4096, 2048, (magnitudes, frame) => {
      if (frame !== 5) return;
      peakBin = magnitudes.indexOf(Math.max(...magnitudes));
    });
    expect(peakBin).toBe(Math.round((1000 * 4096) / RATE));
    const classes = chroma(progression([[60, 64, 67]]));
    const top = [...classes.keys()].sort((x, y) => classes[y]! - classes[x]!).slice(0, 3);
    console.log(`C major chord chroma, top three: ${top.map((c) => PITCH_CLASSES[c]).join(' ')}`);
    expect(top.sort((x, y) => x - y)).toEqual([0, 4, 7]);
    expect(classes.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 6);
  });

  it('finds C major, A minor and Eb major from their progressions', () => {
    const cases = [
      {
        name: 'C major (C-F-G-C)',
        chords: [
          [60, 64, 67],
          [65, 69, 72],
          [67, 71, 74],
          [60, 64, 67],
        ],
        root: 0,
        mode: 'major',
      },
      {
        name: 'A minor (Am-Dm-E-Am)',
        chords: [
          [57, 60, 64],
          [62, 65, 69],
          [64, 68, 71],
          [57, 60, 64],
        ],
        root: 9,
        mode: 'minor',
      },
      {
        name: 'Eb major (Eb-Ab-Bb-Eb)',
        chords: [
          [63, 67, 70],
          [68, 72, 75],
          [70, 74, 77],
          [63, 67, 70],
        ],
        root: 3,
        mode: 'major',
      },
    ];
    for (const { name, chords, root, mode } of cases) {
      const key = estimateKey(progression(chords));
      console.log(`${name}: ${PITCH_CLASSES[key.root]} ${key.mode}, confidence ${key.confidence.toFixed(2)}`);
      expect(key.root).toBe(root);
      expect(key.mode).toBe(mode);
      expect(key.confidence).toBeGreaterThan(0.5);
    }
  });
});

describe('time-stretch and pitch-shift', () => {
  it('stretches a 440 Hz tone by 1.25 without changing its pitch', () => {
    const input = tone(2, () => 440);
    for (const ratio of [1.25, 0.8]) {
      const output = timeStretch(input, ratio);
      const pitch = medianPitch(pitchTrack(mono(output), RATE));
      expect(frames(output)).toBe(Math.round(frames(input) * ratio));
      expect(Math.abs(pitch / 440 - 1)).toBeLessThan(0.01);
    }
  });

  it('shifts a 440 Hz tone up 3 semitones to 523.25 Hz, same length', () => {
    const input = tone(2, () => 440);
    const output = pitchShift(input, 3);
    const pitch = medianPitch(pitchTrack(mono(output), RATE));
    const down = medianPitch(pitchTrack(mono(pitchShift(input, -5)), RATE));
    console.log(`shift +3: ${pitch.toFixed(2)} Hz; shift -5: ${down.toFixed(2)} Hz (expected 329.63)`);
    expect(frames(output)).toBe(frames(input));
    expect(Math.abs(pitch / 523.25 - 1)).toBeLessThan(0.015);
    expect(Math.abs(down / 329.63 - 1)).toBeLessThan(0.015);
  });

  it('moves a C major progression to Eb major, and keeps it in C when only stretching', () => {
    const cMajor = progression([
      [60, 64, 67],
      [65, 69, 72],
      [67, 71, 74],
      [60, 64, 67],
    ]);
    const shifted = estimateKey(pitchShift(cMajor, 3));
    const stretched = estimateKey(timeStretch(cMajor, 1.2));
    console.log(
      `C major shifted +3: ${PITCH_CLASSES[shifted.root]} ${shifted.mode}; stretched x1.2: ${PITCH_CLASSES[stretched.root]} ${stretched.mode}`,
    );
    expect([shifted.root, shifted.mode]).toEqual([3, 'major']);
    expect([stretched.root, stretched.mode]).toEqual([0, 'major']);
  });

  it('stretches and shifts stems in step when their mix guides them', () => {
    const drums = drumLoop(4, 120);
    const chords = progression([
      [57, 60, 64],
      [62, 65, 69],
    ]);
    const full = mix([drums, chords]);
    const largestError = (parts: Pcm[], whole: Pcm) => {
      const summed = mix(parts);
      let error = 0;
      for (const [c, channel] of whole.channels.entries()) {
        for (let i = 0; i < channel.length; i += 1) {
          error = Math.max(error, Math.abs(channel[i]! - summed.channels[c]![i]!));
        }
      }
      return error;
    };
    const stretchError = largestError(
      [timeStretch(drums, 1.15, full), timeStretch(chords, 1.15, full)],
      timeStretch(full, 1.15),
    );
    const shiftError = largestError(
      [pitchShift(drums, -2, full), pitchShift(chords, -2, full)],
      pitchShift(full, -2),
    );
    console.log(
      `guided stems vs mix: stretch error ${stretchError.toExponential(2)}, shift error ${shiftError.toExponential(2)}`,
    );
    expect(stretchError).toBeLessThan(1e-5);
    expect(shiftError).toBeLessThan(1e-5);
    // Unguided, each stem picks its own grains, and the sum drifts from the stretched mix.
    expect(
      largestError([timeStretch(drums, 1.15), timeStretch(chords, 1.15)], timeStretch(full, 1.15)),
    ).toBeGreaterThan(1e-3);
  });

  it('brings a 100 BPM click track to 120 BPM', () => {
    const stretched = timeStretch(clickTrack(10, 100), 100 / 120);
    const tempo = estimateTempo(stretched);
    console.log(`100 BPM clicks stretched by 100/120: ${tempo.bpm} BPM`);
    expect(Math.abs(tempo.bpm - 120)).toBeLessThanOrEqual(2);
  });

  // Its speed is measured by bench/music.mjs (time-stretch), not timed here.
  it('stretches 30 s of stereo drums, keeping the loop in time', () => {
    const output = timeStretch(drumLoop(30, 120), 1.1);
    expect(Math.abs(estimateTempo(output).bpm - 120 / 1.1)).toBeLessThanOrEqual(2);
  });
});
