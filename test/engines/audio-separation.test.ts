/**
 * Vocal extraction, vocal activity, waveform overviews and the instrument split, measured on
 * synthetic songs built here: a sung line (a sawtooth with glides and 5.5 Hz vibrato through
 * three formant filters, in syllables) over a bass line, a chord pad, hi-hats and a kick, each
 * placed in the stereo field as a mix engineer would. Knowing every part lets the tests score the
 * separation (signal-to-distortion ratio) instead of trusting it.
 */
import { describe, expect, it } from 'vitest';
import { biquad, filter, filterChain } from '../../src/engines/audio/dsp/biquad.js';
import { type Pcm, SAMPLE_RATE, addInto, mix, silence } from '../../src/engines/audio/dsp/pcm.js';
import { harmonicPercussive, rampUp, separateVocals } from '../../src/engines/audio/separate/vocals.js';
import { splitInstruments } from '../../src/engines/audio/separate/split-instruments.js';
import { analyse, binHz, magnitude, synthesise } from '../../src/engines/audio/dsp/stft.js';
import { vocalSpan } from '../../src/engines/audio/analysis/vocal-span.js';
import { waveformAggregates } from '../../src/engines/audio/display/waveform.js';
import { type Random, seeded } from '../../src/engines/random.js';

const RATE = SAMPLE_RATE;

/** Constant-power pan: -1 hard left, 0 centre, 1 hard right. */
function panned(samples: Float32Array, pan: number): Pcm {
  const angle = ((pan + 1) * Math.PI) / 4;
  return {
    rate: RATE,
    channels: [samples.map((s) => s * Math.cos(angle)), samples.map((s) => s * Math.sin(angle))],
  };
}

/** Formants (Hz) of a few vowels. */
const VOWELS = [
  [730, 1090, 2440],
  [270, 2290, 3010],
  [530, 1840, 2480],
  [570, 840, 2410],
  [300, 870, 2240],
];

/** A sung line from `from` to `to` seconds exactly: syllables of 0.2–0.55 s on a G major scale. */
function voice(seconds: number, from: number, to: number, random: Random): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  const notes = [196, 220, 247, 262, 294, 330, 349, 392];
  let at = from;
  let previous = notes[3]!;
  while (at < to) {
    let length = Math.min(0.2 + random() * 0.35, to - at);
    if (to - at - length < 0.3) length = to - at;
    const note = notes[Math.floor(random() * notes.length)]!;
    const vowel = VOWELS[Math.floor(random() * VOWELS.length)]!;
    const n = Math.round(length * RATE);
    const source = new Float32Array(n);
    const vibrato = random() * 2 * Math.PI;
    let phase = 0;
    for (let i = 0; i < n; i += 1) {
      const t = i / RATE;
      const pitch = previous + (note - previous) * Math.min(1, t / 0.05);
      phase += (pitch * (1 + 0.025 * Math.sin(2 * Math.PI * 5.5 * t + vibrato))) / RATE;
      phase -= Math.floor(phase);
      source[i] = (2 * phase - 1) * Math.min(1, t / 0.03, (length - t) / 0.05);
    }
    const start = Math.round(at * RATE);
    vowel.forEach((formant, f) => {
      const band = filter(source.slice(), biquad('bandpass', formant, RATE, 6));
      const gain = [1, 0.6, 0.35][f]!;
      for (let i = 0; i < n && start + i < out.length; i += 1) out[start + i]! += band[i]! * gain;
    });
    previous = note;
    at += length + 0.04 + random() * 0.12;
  }
  return out;
}

function sawNote(into: Float32Array, at: number, length: number, hz: number, gain: number): void {
  const start = Math.round(at * RATE);
  let phase = 0;
  for (let i = 0; i < Math.round(length * RATE) && start + i < into.length; i += 1) {
    const t = i / RATE;
    phase += hz / RATE;
    phase -= Math.floor(phase);
    into[start + i]! += (2 * phase - 1) * gain * Math.min(1, t / 0.01, (length - t) / 0.02);
  }
}

function bassLine(seconds: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  const notes = [55, 55, 65.4, 49];
  for (let i = 0; i * 0.5 < seconds; i += 1) sawNote(out, i * 0.5, 0.48, notes[i % notes.length]!, 0.5);
  return filterChain(out, [biquad('lowpass', 400, RATE), biquad('lowpass', 400, RATE)]);
}

function chordPad(seconds: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  const chords = [
    [220, 277, 330],
    [196, 247, 294],
    [175, 220, 262],
    [196, 247, 330],
  ];
  for (let i = 0; i * 2 < seconds; i += 1) {
    for (const hz of chords[i % chords.length]!) sawNote(out, i * 2, 2, hz, 0.15);
  }
  return filter(out, biquad('lowpass', 2500, RATE));
}

function hiHats(seconds: number, random: Random): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let at = 0.125; at < seconds; at += 0.25) {
    const start = Math.round(at * RATE);
    for (let i = 0; i < 0.06 * RATE && start + i < out.length; i += 1) {
      out[start + i] = (random() * 2 - 1) * Math.exp(-i / (0.012 * RATE)) * 0.5;
    }
  }
  return filterChain(out, [biquad('highpass', 7000, RATE), biquad('highpass', 7000, RATE)]);
}

/** A kick every half second: a sine falling from 145 to 45 Hz, decaying over a few tenths of a second. */
function kicks(seconds: number): Float32Array {
  const out = new Float32Array(Math.round(seconds * RATE));
  for (let at = 0; at < seconds; at += 0.5) {
    const start = Math.round(at * RATE);
    let phase = 0;
    for (let i = 0; i < 0.3 * RATE && start + i < out.length; i += 1) {
      const t = i / RATE;
      phase += (45 + 100 * Math.exp(-t / 0.03)) / RATE;
      out[start + i] = Math.sin(2 * Math.PI * phase) * Math.exp(-t / 0.08) * 0.9;
    }
  }
  return out;
}

/** The stereo song: voice centred, bass 70% left, pad 60% right, hi-hats hard right, kick 20% left. */
function stereoSong(seconds: number, seed: number, sung: { from: number; to: number } | null) {
  const random = seeded(seed);
  const line = sung
    ? voice(seconds, sung.from, sung.to, random)
    : new Float32Array(Math.round(seconds * RATE));
  const vocals = panned(line, 0);
  const band = silence(seconds);
  addInto(band, panned(bassLine(seconds), -0.7), 0);
  addInto(band, panned(chordPad(seconds), 0.6), 0);
  addInto(band, panned(hiHats(seconds, random), 1), 0);
  addInto(band, panned(kicks(seconds), -0.2), 0);
  return { vocals, band, mixture: mix([vocals, band]) };
}

function dot(a: Pcm, b: Pcm): number {
  let sum = 0;
  a.channels.forEach((channel, c) => {
    const other = b.channels[c]!;
    for (let i = 0; i < channel.length; i += 1) sum += channel[i]! * other[i]!;
  });
  return sum;
}

/** Signal-to-distortion ratio of `estimate` against `reference`, in dB, over every channel. */
function sdr(reference: Pcm, estimate: Pcm): number {
  const error = dot(reference, reference) - 2 * dot(reference, estimate) + dot(estimate, estimate);
  return 10 * Math.log10(dot(reference, reference) / error);
}

/** The largest |Σ parts − whole| over every sample. */
function sumError(whole: Pcm, parts: Pcm[]): number {
  let worst = 0;
  whole.channels.forEach((channel, c) => {
    for (let i = 0; i < channel.length; i += 1) {
      const sum = parts.reduce((s, part) => s + part.channels[c]![i]!, 0);
      worst = Math.max(worst, Math.abs(sum - channel[i]!));
    }
  });
  return worst;
}

describe('short-time Fourier transform', () => {
  it('gives back an untouched signal, odd lengths and channel counts included', () => {
    const random = seeded(1);
    const length = 44_100 + 333;
    const channels = [0, 1, 2].map((c) =>
      Float32Array.from(
        { length },
        (_, i) => 0.5 * Math.sin(2 * Math.PI * (220 + 110 * c) * (i / RATE)) + 0.3 * (random() - 0.5),
      ),
    );
    const back = synthesise(analyse(channels));
    expect(back).toHaveLength(3);
    back.forEach((channel, c) => {
      expect(channel).toHaveLength(length);
      let worst = 0;
      for (let i = 0; i < length; i += 1) worst = Math.max(worst, Math.abs(channel[i]! - channels[c]![i]!));
      expect(worst).toBeLessThan(1e-5);
    });
  });

  it('keeps what a mask passes and drops what it stops', () => {
    const length = RATE;
    const low = Float32Array.from({ length }, (_, i) => 0.5 * Math.sin(2 * Math.PI * 440 * (i / RATE)));
    const both = low.map((s, i) => s + 0.3 * Math.sin(2 * Math.PI * 5000 * (i / RATE)));
    const spectra = analyse([both]);
    const { bins, size } = spectra[0]!;
    const magnitudes = magnitude(spectra);
    const middle = Math.floor(spectra[0]!.frames / 2) * bins;
    const peak = magnitudes
      .subarray(middle, middle + bins)
      .reduce((best, m, k, all) => (m > all[best]! ? k : best), 0);
    expect(Math.abs(binHz(peak, size, RATE) - 440)).toBeLessThan(RATE / size);
    const mask = Float64Array.from({ length: magnitudes.length }, (_, i) =>
      binHz(i % bins, size, RATE) < 1000 ? 1 : 0,
    );
    const kept = { rate: RATE, channels: synthesise(spectra, mask) };
    expect(sdr({ rate: RATE, channels: [low] }, kept)).toBeGreaterThan(40);
  });
});

describe('harmonic/percussive masks', () => {
  it('give a held tone to the harmonic side and clicks to the percussive side', () => {
    const samples = Float32Array.from(
      { length: 2 * RATE },
      (_, i) => 0.3 * Math.sin(2 * Math.PI * 1000 * (i / RATE)),
    );
    for (let at = 0.25; at < 2; at += 0.25) samples[Math.round(at * RATE)]! += 1;
    const spectra = analyse([samples]);
    const { bins, size, hop } = spectra[0]!;
    const { harmonic, percussive } = harmonicPercussive(magnitude(spectra), bins);
    const toneBin = Math.round((1000 * size) / RATE);
    const highBin = Math.round((10_000 * size) / RATE);
    // Frame t is centred on sample t·hop − (size − hop) + size/2.
    const frameAt = (seconds: number) => Math.round((seconds * RATE + size / 2 - hop) / hop);
    const clickFrame = frameAt(1);
    const quietFrame = frameAt(1.125);
    expect(harmonic[quietFrame * bins + toneBin]).toBeGreaterThan(0.95);
    expect(percussive[clickFrame * bins + highBin]).toBeGreaterThan(0.95);
    expect(harmonic[clickFrame * bins + highBin]! + percussive[clickFrame * bins + highBin]!).toBeCloseTo(
      1,
      12,
    );
  });

  it('shape band edges with a smooth ramp', () => {
    expect(rampUp(100, 150, 260)).toBe(0);
    expect(rampUp(300, 150, 260)).toBe(1);
    expect(rampUp(Math.sqrt(150 * 260), 150, 260)).toBeCloseTo(0.5, 12);
    expect(rampUp(170, 150, 260)).toBeLessThan(rampUp(200, 150, 260));
  });
});

describe('vocal separation', () => {
  // Its speed is measured by bench/music.mjs (vox, times real time), not timed here.
  it('pulls a centred voice out of a stereo mix, and the parts add up to the mix', () => {
    // Ten seconds hold every part of the arrangement several times over (bars of 2 s).
    const { vocals, mixture } = stereoSong(10, 7, { from: 0.5, to: 9.5 });
    const separated = separateVocals(mixture);
    const before = sdr(vocals, mixture);
    const after = sdr(vocals, separated.vocals);
    console.log(
      `stereo: SDR ${before.toFixed(1)} dB -> ${after.toFixed(1)} dB (+${(after - before).toFixed(1)} dB)`,
    );
    expect(after - before).toBeGreaterThan(6);
    expect(sumError(mixture, [separated.vocals, separated.accompaniment])).toBeLessThan(1e-6);
    expect(separated.vocals.channels).toHaveLength(2);
  });

  it('does what it can with a mono mix', () => {
    const seconds = 8;
    const random = seeded(11);
    const line = voice(seconds, 0.5, seconds - 0.5, random);
    const mixed = line.slice();
    for (const part of [chordPad(seconds), hiHats(seconds, random), kicks(seconds)]) {
      for (let i = 0; i < mixed.length; i += 1) mixed[i]! += 0.7 * part[i]!;
    }
    const input: Pcm = { rate: RATE, channels: [mixed] };
    const separated = separateVocals(input);
    const reference: Pcm = { rate: RATE, channels: [line] };
    const before = sdr(reference, input);
    const after = sdr(reference, separated.vocals);
    console.log(
      `mono: SDR ${before.toFixed(1)} dB -> ${after.toFixed(1)} dB (+${(after - before).toFixed(1)} dB)`,
    );
    expect(after - before).toBeGreaterThan(2);
    expect(separated.vocals.channels).toHaveLength(1);
    expect(sumError(input, [separated.vocals, separated.accompaniment])).toBeLessThan(1e-6);

    // Two identical channels are mono: the same estimate, in both channels.
    const doubled = separateVocals({ rate: RATE, channels: [mixed, mixed.slice()] });
    expect(doubled.vocals.channels[1]).toEqual(separated.vocals.channels[0]);
    expect(() => separateVocals(input, { method: 'stereo' })).toThrow(/two channels/);
  });
});

describe('vocal span', () => {
  it('finds where the voice is sung after separation, and nothing in an instrumental', () => {
    const sung = stereoSong(12, 3, { from: 3, to: 9.5 });
    const span = vocalSpan(separateVocals(sung.mixture).vocals, { mixture: sung.mixture });
    console.log(
      `vocal span: ${span?.start.toFixed(3)} s to ${span?.end.toFixed(3)} s (placed 3.000 to 9.500)`,
    );
    expect(span).not.toBeNull();
    expect(Math.abs(span!.start - 3)).toBeLessThan(0.25);
    expect(Math.abs(span!.end - 9.5)).toBeLessThan(0.25);

    // Separation leaves kick thumps and chord edges in the vocal of an instrumental: not singing.
    const instrumental = stereoSong(12, 3, null);
    const leaked = separateVocals(instrumental.mixture).vocals;
    expect(vocalSpan(leaked, { mixture: instrumental.mixture })).toBeNull();
    expect(vocalSpan(leaked)).toBeNull();
    expect(vocalSpan(silence(5))).toBeNull();
  });
});

describe('waveform aggregates', () => {
  it('builds a pyramid of 16-bit peak pairs, each level from the one below', () => {
    const sine = Float32Array.from({ length: 10 * RATE }, (_, i) => Math.sin(2 * Math.PI * 440 * (i / RATE)));
    const levels = waveformAggregates({ rate: RATE, channels: [sine, sine.slice()] });
    expect(levels.map((level) => level.data.length)).toEqual([431, 216, 108, 54]);
    levels.forEach((level, n) => {
      expect(level.mip_map_level).toBe(n);
      for (const [low, high] of level.data) {
        expect(low).toBeLessThanOrEqual(-32700);
        expect(high).toBeGreaterThanOrEqual(32700);
        expect(Number.isInteger(low) && Number.isInteger(high)).toBe(true);
      }
      if (n === 0) return;
      const below = levels[n - 1]!.data;
      level.data.forEach(([low, high], i) => {
        const pair = [below[2 * i]!, below[2 * i + 1] ?? below[2 * i]!];
        expect(low).toBe(Math.min(pair[0]![0]!, pair[1]![0]!));
        expect(high).toBe(Math.max(pair[0]![1]!, pair[1]![1]!));
      });
    });
  });

  it('reads silence, and channels that cancel in the mono mix, as [0, 0]', () => {
    const sine = Float32Array.from(
      { length: RATE },
      (_, i) => 0.8 * Math.sin(2 * Math.PI * 100 * (i / RATE)),
    );
    for (const pcm of [silence(1), { rate: RATE, channels: [sine, sine.map((s) => -s)] }]) {
      for (const level of waveformAggregates(pcm)) {
        for (const pair of level.data) expect(pair).toEqual([0, 0]);
      }
    }
  });

  it('gives a three-minute song a usable level 0 and stops at 64 pairs or fewer', () => {
    const levels = waveformAggregates(silence(180, 1));
    expect(levels[0]!.data).toHaveLength(Math.ceil((180 * RATE) / 1024));
    expect(levels.at(-1)!.data.length).toBeLessThanOrEqual(64);
    expect(levels.at(-2)!.data.length).toBeGreaterThan(64);
    expect(
      waveformAggregates(silence(10, 1), { samplesPerPair: 441, fewestPairs: 10 })[0]!.data,
    ).toHaveLength(1000);
  });
});

describe('instrument split', () => {
  it('routes drums to drums and the bass to bass, and the four stems add up to the upload', () => {
    const seconds = 12;
    const random = seeded(3);
    const drums = mix([panned(kicks(seconds), -0.2), panned(hiHats(seconds, random), 0.5)]);
    const bass = panned(
      Float32Array.from({ length: seconds * RATE }, (_, i) => 0.4 * Math.sin(2 * Math.PI * 55 * (i / RATE))),
      0,
    );
    const upload = mix([
      drums,
      bass,
      panned(voice(seconds, 1, 11, random), 0),
      panned(chordPad(seconds), 0.6),
    ]);
    const started = performance.now();
    const stems = splitInstruments(upload);
    const took = (performance.now() - started) / 1000;
    // The share of a part's energy that a stem carries: its projection on the part.
    const drumShare = dot(stems.drums, drums) / dot(drums, drums);
    const bassShare = dot(stems.bass, bass) / dot(bass, bass);
    console.log(
      `split: drums ${(100 * drumShare).toFixed(0)}% in drums, bass ${(100 * bassShare).toFixed(0)}% in bass; 12 s in ${took.toFixed(2)} s`,
    );
    expect(drumShare).toBeGreaterThan(0.6);
    expect(bassShare).toBeGreaterThan(0.75);
    expect(sumError(upload, [stems.vocals, stems.drums, stems.bass, stems.other])).toBeLessThan(1e-5);
  });
});
