/**
 * The loudness meter and the mastering chain, checked against ffmpeg's ebur128 filter as an
 * independent BS.1770 meter, on synthetic songs built here (drums, bass and chords).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { integratedLoudness, truePeak, truePeakEnvelope } from '../../src/engines/audio/master/loudness.js';
import { applyMaster, CEILING_DBTP, planMaster, TARGET_LUFS } from '../../src/engines/audio/master/master.js';
import { concat, frames, mix, rms, silence, slice, type Pcm } from '../../src/engines/audio/dsp/pcm.js';
import { seeded } from '../../src/engines/random.js';

const RATE = 44_100;

/** ffmpeg's reading of integrated loudness (LUFS) and true peak (dBTP). */
async function ffmpegMeter(pcm: Pcm): Promise<{ lufs: number; peakDb: number }> {
  const width = pcm.channels.length;
  const interleaved = new Float32Array(frames(pcm) * width);
  pcm.channels.forEach((channel, c) => {
    for (let i = 0; i < channel.length; i += 1) interleaved[i * width + c] = channel[i]!;
  });
  const args = ['-hide_banner', '-nostats', '-f', 'f32le', '-ar', String(pcm.rate), '-ac', String(width)];
  args.push('-i', 'pipe:0', '-af', 'ebur128=peak=true:framelog=verbose', '-f', 'null', '-');
  const child = spawn('ffmpeg', args, { stdio: ['pipe', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stdin.end(Buffer.from(interleaved.buffer));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
  const lufs = [...log.matchAll(/I:\s+(-?[\d.]+) LUFS/g)].at(-1)?.[1];
  const peak = [...log.matchAll(/Peak:\s+(-?[\d.]+) dBFS/g)].at(-1)?.[1];
  return { lufs: Number(lufs), peakDb: Number(peak) };
}

function samplePeakOf(pcm: Pcm): number {
  let peak = 0;
  for (const channel of pcm.channels) for (const value of channel) peak = Math.max(peak, Math.abs(value));
  return peak;
}

function scaled(pcm: Pcm, gain: number): Pcm {
  return mix([pcm], [gain]);
}

function sine(frequency: number, amplitude: number, seconds: number, phase = 0): Pcm {
  const out = silence(seconds);
  for (const channel of out.channels) {
    for (let i = 0; i < channel.length; i += 1) {
      channel[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / RATE + phase);
    }
  }
  return out;
}

/** One period of a note with decaying harmonics, read at any pitch by phase accumulation. */
const WAVE = Float32Array.from({ length: 2048 }, (_, i) => {
  let value = 0;
  for (let h = 1; h <= 6; h += 1) value += Math.sin((2 * Math.PI * h * i) / 2048) / h;
  return value * 0.5;
});

function addNote(into: Float32Array, midi: number, start: number, seconds: number, amplitude: number): void {
  const step = ((440 * 2 ** ((midi - 69) / 12)) / RATE) * WAVE.length;
  const from = Math.round(start * RATE);
  const length = Math.min(Math.round(seconds * RATE), into.length - from);
  let phase = 0;
  for (let i = 0; i < length; i += 1) {
    const envelope = Math.min(1, i / 200) * Math.exp((-2 * i) / length);
    const index = Math.floor(phase);
    const frac = phase - index;
    const a = WAVE[index % WAVE.length]!;
    const b = WAVE[(index + 1) % WAVE.length]!;
    into[from + i]! += amplitude * envelope * (a + (b - a) * frac);
    phase = (phase + step) % WAVE.length;
  }
}

/** A pop-like song: kick, snare and hats at `bpm`, a bass line and chords, as stems and their mix. */
function song(seconds: number, bpm = 120, seed = 1): { stems: Pcm[]; mix: Pcm } {
  const random = seeded(seed);
  const beat = 60 / bpm;
  const drums = silence(seconds);
  const bass = silence(seconds);
  const chords = silence(seconds);
  const [left, right] = drums.channels as [Float32Array, Float32Array];
  const progression = [
    [60, 64, 67],
    [57, 60, 64],
    [65, 69, 72],
    [67, 71, 74],
  ];
  for (let b = 0; b * beat < seconds; b += 1) {
    const at = Math.round(b * beat * RATE);
    if (b % 2 === 0) {
      // Kick: a sine falling from 120 to 45 Hz.
      let phase = 0;
      for (let i = 0; i < 0.3 * RATE && at + i < left.length; i += 1) {
        const t = i / RATE;
        phase += (2 * Math.PI * (45 + 75 * Math.exp(-t * 30))) / RATE;
        const value = 0.8 * Math.exp(-t * 12) * Math.sin(phase);
        left[at + i]! += value;
        right[at + i]! += value;
      }
    } else {
      // Snare: a noise burst over a 190 Hz body, a little to the left.
      for (let i = 0; i < 0.2 * RATE && at + i < left.length; i += 1) {
        const t = i / RATE;
        const value = 0.4 * Math.exp(-t * 25) * (random() * 2 - 1 + 0.6 * Math.sin(2 * Math.PI * 190 * t));
        left[at + i]! += value;
        right[at + i]! += 0.8 * value;
      }
    }
    for (const half of [0, 0.5]) {
      // Hats: short noise bursts, differenced to keep them bright, a little to the right.
      const from = at + Math.round(half * beat * RATE);
      let last = 0;
      for (let i = 0; i < 0.05 * RATE && from + i < left.length; i += 1) {
        const noise = random() * 2 - 1;
        const value = 0.12 * Math.exp((-i / RATE) * 80) * (noise - last);
        last = noise;
        left[from + i]! += 0.8 * value;
        right[from + i]! += value;
      }
    }
    if (b % 4 === 0) {
      const chord = progression[(b / 4) % progression.length]!;
      for (const [c, channel] of chords.channels.entries()) {
        for (const midi of chord) addNote(channel, midi, b * beat, 4 * beat, c === 0 ? 0.12 : 0.1);
      }
      for (const channel of bass.channels) {
        addNote(channel, chord[0]! - 24, b * beat, 2 * beat, 0.3);
        addNote(channel, chord[0]! - 24, (b + 2) * beat, 2 * beat, 0.3);
      }
    }
  }
  const stems = [drums, bass, chords];
  return { stems, mix: mix(stems) };
}

/** `pcm` scaled to read `lufs` on this meter. */
function atLoudness(pcm: Pcm, lufs: number): Pcm {
  return scaled(pcm, 10 ** ((lufs - integratedLoudness(pcm)) / 20));
}

/** Driven into a hard clip at full scale until it reads about `lufs`: a loud, crushed master. */
function crushed(pcm: Pcm, lufs: number): Pcm {
  let drive = 1;
  let out = pcm;
  for (let pass = 0; pass < 6; pass += 1) {
    out = scaled(pcm, drive);
    for (const channel of out.channels) {
      for (let i = 0; i < channel.length; i += 1) channel[i] = Math.max(-1, Math.min(1, channel[i]!));
    }
    drive *= 10 ** ((lufs - integratedLoudness(out)) / 20);
  }
  return out;
}

describe('loudness meter', () => {
  it('reads a -20 dBFS 1 kHz stereo sine as -20 LUFS and -20 dBTP, like ffmpeg', async () => {
    const tone = sine(1000, 0.1, 5);
    const reference = await ffmpegMeter(tone);
    const lufs = integratedLoudness(tone);
    const peakDb = truePeak(tone);
    console.log(
      `1 kHz sine: ${lufs.toFixed(2)} LUFS (ffmpeg ${reference.lufs}), ${peakDb.toFixed(2)} dBTP (ffmpeg ${reference.peakDb})`,
    );
    // Both channels at -20 dBFS: the K-weighting's +0.69 dB at 1 kHz cancels the -0.691 offset.
    expect(Math.abs(lufs - -20)).toBeLessThan(0.05);
    expect(Math.abs(lufs - reference.lufs)).toBeLessThanOrEqual(0.3);
    expect(Math.abs(peakDb - reference.peakDb)).toBeLessThanOrEqual(0.3);
  });

  it('agrees with ffmpeg on a song with drums and chords', async () => {
    const music = song(10, 120, 7).mix;
    const reference = await ffmpegMeter(music);
    const lufs = integratedLoudness(music);
    const peakDb = truePeak(music);
    console.log(
      `song: ${lufs.toFixed(2)} LUFS (ffmpeg ${reference.lufs}), ${peakDb.toFixed(2)} dBTP (ffmpeg ${reference.peakDb})`,
    );
    expect(Math.abs(lufs - reference.lufs)).toBeLessThanOrEqual(0.3);
    expect(Math.abs(peakDb - reference.peakDb)).toBeLessThanOrEqual(0.3);
  });

  it('gates out a quiet passage and silence, like ffmpeg', async () => {
    const music = song(12, 100, 3).mix;
    const loud = slice(music, 0, 6);
    const quiet = scaled(slice(music, 6, 12), 10 ** (-25 / 20));
    const withQuiet = concat([loud, quiet, silence(3)]);
    const reference = await ffmpegMeter(withQuiet);
    const lufs = integratedLoudness(withQuiet);
    const loudOnly = integratedLoudness(loud);
    console.log(
      `gating: ${lufs.toFixed(2)} LUFS (ffmpeg ${reference.lufs}), loud part alone ${loudOnly.toFixed(2)}`,
    );
    expect(Math.abs(lufs - reference.lufs)).toBeLessThanOrEqual(0.3);
    // Ungated, 6 s at -25 LU and 3 s of silence would pull the mean 4 LU under the loud part; gated,
    // only the blocks straddling the change from loud to quiet count against it.
    expect(Math.abs(lufs - loudOnly)).toBeLessThan(0.6);
    expect(integratedLoudness(silence(2))).toBe(-Infinity);
  });

  it('finds the peak between samples', async () => {
    // A quarter-rate sine whose samples all fall 3 dB under its crests, faded in and out.
    const tone = sine(RATE / 4, 0.5, 3, Math.PI / 4);
    for (const channel of tone.channels) {
      for (let i = 0; i < channel.length; i += 1)
        channel[i]! *= Math.min(1, i / 4410, (channel.length - i) / 4410);
    }
    const samplePeak = samplePeakOf(tone);
    const detector = truePeakEnvelope(tone);
    const detected = detector.reduce((max, value) => Math.max(max, value), 0);
    const reference = await ffmpegMeter(tone);
    console.log(
      `inter-sample: sample peak ${(20 * Math.log10(samplePeak)).toFixed(2)} dBFS, true peak ${truePeak(tone).toFixed(2)} dBTP (ffmpeg ${reference.peakDb})`,
    );
    expect(20 * Math.log10(samplePeak)).toBeLessThan(-8.9);
    expect(Math.abs(truePeak(tone) - 20 * Math.log10(0.5))).toBeLessThan(0.05);
    expect(Math.abs(20 * Math.log10(detected) - truePeak(tone))).toBeLessThan(1e-4);
    expect(Math.abs(truePeak(tone) - reference.peakDb)).toBeLessThanOrEqual(0.3);
  });
});

describe('mastering', () => {
  async function expectMastered(input: Pcm, label: string): Promise<void> {
    const master = planMaster(input);
    const output = applyMaster(master, input);
    const lufs = integratedLoudness(output);
    const peakDb = truePeak(output);
    const reference = await ffmpegMeter(output);
    console.log(
      `${label} (${integratedLoudness(input).toFixed(1)} LUFS in): ${lufs.toFixed(2)} LUFS, ${peakDb.toFixed(2)} dBTP; ` +
        `ffmpeg ${reference.lufs} LUFS, ${reference.peakDb} dBTP`,
    );
    expect(Math.abs(lufs - TARGET_LUFS)).toBeLessThanOrEqual(0.5);
    expect(peakDb).toBeLessThanOrEqual(CEILING_DBTP + 0.01);
    expect(Math.abs(reference.lufs - TARGET_LUFS)).toBeLessThanOrEqual(0.5);
    expect(reference.peakDb).toBeLessThanOrEqual(-1);
  }

  it('brings a quiet mix up to -14 LUFS under -1 dBTP', async () => {
    const quiet = atLoudness(song(8, 110, 5).mix, -30);
    expect(Math.abs(integratedLoudness(quiet) - -30)).toBeLessThan(0.1);
    await expectMastered(quiet, 'quiet mix');
  });

  it('brings a loud, clipped mix down to -14 LUFS under -1 dBTP', async () => {
    const loud = crushed(song(8, 128, 9).mix, -6);
    expect(Math.abs(integratedLoudness(loud) - -6)).toBeLessThan(0.5);
    expect(samplePeakOf(loud)).toBe(1);
    await expectMastered(loud, 'clipped mix');
  });

  it('takes other targets, and leaves silence silent', () => {
    const music = atLoudness(song(8, 100, 2).mix, -24);
    const output = applyMaster(planMaster(music, { lufs: -18, truePeakDb: -3 }), music);
    console.log(
      `-18 LUFS / -3 dBTP target: ${integratedLoudness(output).toFixed(2)} LUFS, ${truePeak(output).toFixed(2)} dBTP`,
    );
    expect(Math.abs(integratedLoudness(output) - -18)).toBeLessThanOrEqual(0.2);
    expect(truePeak(output)).toBeLessThanOrEqual(-3 + 0.01);
    const quiet = silence(1);
    const master = planMaster(quiet);
    expect(master.gain).toBe(1);
    expect(rms(applyMaster(master, quiet))).toBe(0);
  });

  it('keeps the EQ gentle: within 2 dB of flat from 50 Hz to 16 kHz, rumble cut', () => {
    const master = planMaster(song(5).mix);
    const neutral = { ...master, gain: 1, envelope: new Float32Array(0) };
    const response = (frequency: number) => {
      const tone = sine(frequency, 0.1, 2);
      // The tail only: the filters start from rest.
      return 20 * Math.log10(rms(slice(applyMaster(neutral, tone), 1, 2)) / rms(slice(tone, 1, 2)));
    };
    const readings = [50, 100, 1000, 5000, 16_000].map(response);
    console.log(
      `EQ response at 50, 100, 1k, 5k, 16k Hz: ${readings.map((db) => db.toFixed(2)).join(', ')} dB`,
    );
    for (const db of readings) expect(Math.abs(db)).toBeLessThanOrEqual(2);
    expect(response(15)).toBeLessThan(-6);
  });

  it('masters stems that sum to the mastered mix', () => {
    const { stems, mix: full } = song(10, 120, 11);
    const loudStems = stems.map((stem) => scaled(stem, 0.25));
    const loudMix = scaled(full, 0.25);
    const started = performance.now();
    const master = planMaster(loudMix);
    const mastered = applyMaster(master, loudMix);
    const elapsed = (performance.now() - started) / 1000;
    const summed = mix(loudStems.map((stem) => applyMaster(master, stem)));
    let error = 0;
    for (const [c, channel] of mastered.channels.entries()) {
      const other = summed.channels[c]!;
      for (let i = 0; i < channel.length; i += 1) error = Math.max(error, Math.abs(channel[i]! - other[i]!));
    }
    const limited = master.envelope.reduce((min, value) => Math.min(min, value), 1);
    console.log(
      `10 s song: planned and applied in ${elapsed.toFixed(2)} s; stems vs mix max error ${error.toExponential(2)}; ` +
        `deepest limiting ${(20 * Math.log10(limited)).toFixed(1)} dB`,
    );
    expect(error).toBeLessThan(1e-4);
    expect(Math.abs(integratedLoudness(mastered) - TARGET_LUFS)).toBeLessThanOrEqual(0.5);
    expect(truePeak(mastered)).toBeLessThanOrEqual(CEILING_DBTP + 0.01);
    // The limiter took part, so the stems property covers the envelope too.
    expect(limited).toBeLessThan(0.9);
  });
});
