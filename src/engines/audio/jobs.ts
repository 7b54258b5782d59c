/**
 * The engine's operations as whole steps, each run on a worker thread: compose and render, take
 * apart, master, match, analyse. Stems are named PCM buffers whose sum is the song; every step
 * that changes a song changes each stem the same linear way, so the stems keep summing to it.
 */
import { reportProgress } from '../worker-methods.js';
import { biquad, filterChain } from './dsp/biquad.js';
import { drawCover, type CoverInput } from './display/cover.js';
import { integratedLoudness, truePeak } from './master/loudness.js';
import { applyMaster, planMaster } from './master/master.js';
import { addInto, concat, durationOf, mix, mono, silence, slice, type Pcm } from './dsp/pcm.js';
import { medianPitch, pitchTrack } from './analysis/pitch.js';
import { estimateKey } from './analysis/key.js';
import {
  planSong,
  restyle,
  varyPlan,
  type RestyleSpec,
  type SongPlan,
  type SongSpec,
} from './compose/plan.js';
import { renderSong } from './synth/render-song.js';
import { separateVocals } from './separate/vocals.js';
import { voiceFor, type Voice } from './voice/singer.js';
import { splitInstruments } from './separate/split-instruments.js';
import { pitchShift, timeStretch } from './dsp/stretch.js';
import { estimateTempo } from './analysis/tempo.js';
import { vocalSpan } from './analysis/vocal-span.js';
import { waveformAggregates } from './display/waveform.js';

// Files in and out, each on a worker thread too: ffmpeg's forks and pipes, the mixdown and levelling.
export { itemFiles, musicVideo, readAudio, readMix, writeMix } from './files.js';

export type Stems = Record<string, Pcm>;

/**
 * Everything the engine makes ends below 16 kHz (4th-order Butterworth): MP3 at 320 kb/s is then
 * close to transparent (coding error about −48 dB instead of −36 dB with full-band hats), so the
 * lossless stems a client gets still sum to the MP3 song it heard.
 */
const BAND_LIMIT_HZ = 16_000;
const BUTTERWORTH_Q = [0.5412, 1.3066];

function bandLimited(stems: Stems): Stems {
  for (const pcm of Object.values(stems)) {
    const chain = BUTTERWORTH_Q.map((q) => biquad('lowpass', BAND_LIMIT_HZ, pcm.rate, q));
    for (const channel of pcm.channels) filterChain(channel, chain);
  }
  return stems;
}

export function sumOf(stems: Stems): Pcm {
  return mix(Object.values(stems));
}

/** A fresh copy, so that the PNG's buffer moves to the caller whole. */
export function cover(input: CoverInput): Uint8Array {
  return new Uint8Array(drawCover(input));
}

/**
 * The engine renders every stem within a fixed share of full scale, so a raw mix sits around
 * −20 to −24 LUFS. A new song is levelled to about −16 LUFS, as far as its true peak allows
 * (−1.5 dBTP: no limiting, so nothing else changes); a part of an existing song (an extension,
 * a replaced section) takes that song's level, so that it joins at the same loudness.
 */
const LEVEL_LUFS = -16;
const LEVEL_CEILING_DBTP = -1.5;

function levelOf(stems: Stems): number {
  const song = sumOf(stems);
  const loudness = integratedLoudness(song);
  if (!Number.isFinite(loudness)) return 1;
  return 10 ** (Math.min(LEVEL_LUFS - loudness, LEVEL_CEILING_DBTP - truePeak(song)) / 20);
}

export interface Take {
  plan: SongPlan;
  stems: Stems;
  /** The gain the song was levelled with; its later parts take the same. */
  level: number;
}

function levelled(plan: SongPlan, stems: Stems, level?: number): Take {
  const gain = level ?? levelOf(stems);
  for (const pcm of Object.values(stems))
    for (const channel of pcm.channels) for (let i = 0; i < channel.length; i += 1) channel[i]! *= gain;
  return { plan, stems, level: gain };
}

/** Share of a take's time its stems take (measured: about 0.6); the rest is filtering and levelling. */
const STEMS_SHARE = 0.6;

/** The plan's stems, telling the caller which stem is rendering: vocals are sung, the rest played. */
async function rendered(plan: SongPlan): Promise<Stems> {
  const onStem = (name: string, index: number, count: number) =>
    reportProgress((STEMS_SHARE * index) / count, name === 'vocals' ? 'sing' : 'compose');
  const { stems } = await renderSong(plan, { onStem });
  reportProgress(STEMS_SHARE, 'mix');
  return bandLimited(stems);
}

/** A song, or a part of one (`spec.base`) at that song's `level`. */
export async function compose(spec: SongSpec, level?: number): Promise<Take> {
  const plan = planSong(spec);
  return levelled(plan, await rendered(plan), level);
}

/** A second take of a song: `varyPlan` decides how far it strays. */
export async function vary(
  plan: SongPlan,
  amount: 'subtle' | 'normal' | 'high',
  seed: number,
): Promise<Take> {
  const varied = varyPlan(plan, amount, seed);
  return levelled(varied, await rendered(varied));
}

/** The same melody and words in another style. */
export async function recompose(plan: SongPlan, spec: RestyleSpec): Promise<Take> {
  const restyled = restyle(plan, spec);
  return levelled(restyled, await rendered(restyled));
}

/** −14 LUFS, true peak under the ceiling, gentle EQ: planned on the mix, applied to each stem. */
export function master(stems: Stems): Stems {
  const plan = planMaster(sumOf(stems));
  return Object.fromEntries(Object.entries(stems).map(([name, pcm]) => [name, applyMaster(plan, pcm)]));
}

/**
 * Each stem stretched by `ratio` (longer above 1) and shifted by `semitones`, all on the grains
 * the whole song chooses, so that the stems stay aligned and still sum to the matched song.
 */
export function match(stems: Stems, ratio: number, semitones: number): Stems {
  const guide = sumOf(stems);
  const stretchedGuide = Math.abs(ratio - 1) < 1e-3 ? guide : timeStretch(guide, ratio);
  return Object.fromEntries(
    Object.entries(stems).map(([name, pcm]) => {
      const stretched = Math.abs(ratio - 1) < 1e-3 ? pcm : timeStretch(pcm, ratio, guide);
      return [name, semitones === 0 ? stretched : pitchShift(stretched, semitones, stretchedGuide)];
    }),
  );
}

export interface Analysis {
  bpm: number;
  firstBeat: number;
  root: number;
  mode: 'major' | 'minor';
}

/** Tempo, beat grid and key of audio the engine did not make. */
export function analyse(pcm: Pcm): Analysis {
  const tempo = estimateTempo(pcm);
  const key = estimateKey(pcm);
  return { bpm: tempo.bpm, firstBeat: tempo.firstBeat ?? 0, root: key.root, mode: key.mode };
}

export function separate(pcm: Pcm) {
  return separateVocals(pcm);
}

export function split(pcm: Pcm): Stems {
  return { ...splitInstruments(pcm) };
}

const HOP_SECONDS = 0.01;

/**
 * The tune of a recording as notes on its beat grid: the pitch of its vocal (or of the whole
 * when it has none) each half beat, held notes merged.
 */
export function follow(
  pcm: Pcm,
  bpm: number,
  firstBeat: number,
): { beat: number; beats: number; midi: number }[] {
  const { vocals } = separateVocals(pcm);
  const track = pitchTrack(mono(vocals), pcm.rate, { hopSeconds: HOP_SECONDS });
  const beatSeconds = 60 / bpm;
  const notes: { beat: number; beats: number; midi: number }[] = [];
  const halves = Math.floor((durationOf(pcm) - firstBeat) / (beatSeconds / 2));
  for (let h = 0; h < halves; h += 1) {
    const from = Math.floor((firstBeat + (h * beatSeconds) / 2) / HOP_SECONDS);
    const to = Math.floor((firstBeat + ((h + 1) * beatSeconds) / 2) / HOP_SECONDS);
    const hz = medianPitch(track.subarray(from, to));
    if (hz <= 0) continue;
    const midi = Math.round(69 + 12 * Math.log2(hz / 440));
    const last = notes[notes.length - 1];
    if (last && last.midi === midi && last.beat + last.beats === h / 2) last.beats += 0.5;
    else notes.push({ beat: h / 2, beats: 0.5, midi });
  }
  return notes;
}

/** A singer's voice as heard in a vocal: register from its median pitch, the rest from it. */
export function learnVoice(vocal: Pcm, seed: number): Voice | null {
  const hz = medianPitch(pitchTrack(mono(vocal), vocal.rate, { hopSeconds: HOP_SECONDS }));
  if (hz <= 0) return null;
  const voice = voiceFor(hz < 165 ? 'm' : 'f', seed);
  return { ...voice, registerHz: hz };
}

/**
 * Context around a piece of a song separated on its own: more than the longest median the
 * separation takes (1.4 s), so that pieces joined end to end match the whole separated at once.
 */
const PIECE_MARGIN_SECONDS = 2;

/** The vocal of `start`..`end` of the audio, separated with context on both sides and cut to it. */
export function vocalsOf(pcm: Pcm, start: number, end: number): Pcm {
  const from = Math.max(0, start - PIECE_MARGIN_SECONDS);
  const { vocals } = separateVocals(slice(pcm, from, end + PIECE_MARGIN_SECONDS));
  return slice(vocals, start - from, end - from);
}

/**
 * `/tune/vox`'s vocal of `start`..`end` of the song from the parts it was separated in, where it
 * sings (seconds of the song) and its waveform.
 */
export function describeVocal(parts: Pcm[], song: Pcm, start: number, end: number) {
  const vocals = concat(parts);
  const span = vocalSpan(vocals, { mixture: slice(song, start, end) });
  return {
    vocals,
    span: span && { start: span.start + start, end: span.end + start },
    aggregates: waveformAggregates(vocals),
  };
}

/**
 * Loops of whole bars from a window: each stem and the mix, cut on bar lines, with what follows
 * the cut faded into the loop's start so that it repeats without a click.
 */
export function loops(stems: Stems, start: number, bars: number, barSeconds: number): Stems {
  const length = bars * barSeconds;
  const fade = Math.min(0.05, barSeconds / 8);
  const loop = (pcm: Pcm): Pcm => {
    const body = slice(pcm, start, start + length);
    const tail = slice(pcm, start + length, start + length + fade);
    const fadeFrames = tail.channels[0]?.length ?? 0;
    body.channels.forEach((channel, c) => {
      const over = tail.channels[c]!;
      for (let i = 0; i < fadeFrames; i += 1) {
        const t = i / fadeFrames;
        channel[i] = channel[i]! * t + over[i]! * (1 - t);
      }
    });
    return body;
  };
  const cut = Object.fromEntries(Object.entries(stems).map(([name, pcm]) => [name, loop(pcm)]));
  return { mix: loop(sumOf(stems)), ...cut };
}

/** `base` with `part` laid over it from `at` seconds (stems by name; new names are added). */
export function overlay(base: Stems, part: Stems, at: number): Stems {
  const length = durationOf(Object.values(base)[0] ?? silence(0));
  const out: Stems = {};
  for (const [name, pcm] of Object.entries(base)) out[name] = mix([pcm]);
  for (const [name, pcm] of Object.entries(part)) {
    const into = out[name] ?? silence(length);
    addInto(into, pcm, at);
    out[name] = into;
  }
  return out;
}

/** The union of stem names, each `length` seconds (silence where a side has no such stem). */
function aligned(sides: Stems[], name: string, seconds: number): Pcm[] {
  return sides.map((side) => side[name] ?? silence(seconds));
}

const SEAM_SECONDS = 0.04;

/** Short equal-gain ramps at the seams of a cut, so that no edit clicks. */
function ramp(pcm: Pcm, fadeIn: boolean, fadeOut: boolean): Pcm {
  const frames = Math.round(SEAM_SECONDS * pcm.rate);
  for (const channel of pcm.channels) {
    const n = Math.min(frames, Math.floor(channel.length / 2));
    for (let i = 0; i < n; i += 1) {
      const g = i / n;
      if (fadeIn) channel[i] = channel[i]! * g;
      if (fadeOut) channel[channel.length - 1 - i] = channel[channel.length - 1 - i]! * g;
    }
  }
  return pcm;
}

/** The first `at` seconds of `head`, then `tail`: an extension joined to what it continues. */
export function joined(head: Stems, at: number, tail: Stems): Stems {
  const names = [...new Set([...Object.keys(head), ...Object.keys(tail)])];
  const tailSeconds = durationOf(Object.values(tail)[0] ?? silence(0));
  const out: Stems = {};
  for (const name of names) {
    const [h, t] = aligned([head, tail], name, Math.max(at, tailSeconds));
    const kept = ramp(slice(h!, 0, at), false, true);
    const start = Math.max(0, at - SEAM_SECONDS);
    const whole = silence(start + durationOf(t!), kept.channels.length, kept.rate);
    addInto(whole, kept, 0);
    addInto(whole, ramp(mix([t!]), true, false), start);
    out[name] = whole;
  }
  return out;
}

/** `base` with the seconds from `start` to `end` replaced by `part` (as long as the window). */
export function spliced(base: Stems, part: Stems, start: number, end: number): Stems {
  const seconds = durationOf(Object.values(base)[0] ?? silence(0));
  const names = [...new Set([...Object.keys(base), ...Object.keys(part)])];
  const out: Stems = {};
  for (const name of names) {
    const [b, p] = aligned([base, part], name, seconds);
    const whole = silence(seconds, 2, b!.rate);
    addInto(whole, ramp(slice(b!, 0, start), false, true), 0);
    addInto(whole, ramp(slice(p!, 0, end - start), true, true), start);
    addInto(whole, ramp(slice(b!, end), true, false), end);
    out[name] = whole;
  }
  return out;
}

const SHARE_FRAME = 1024;

/**
 * Stems that sum exactly to the song as `heard` (its decoded MP3): the coding error of the MP3
 * (about −38 dB under the song at 320 kb/s) is shared among the stems by their energy in each
 * 23 ms frame, weights moving smoothly between frames and summing to one at every sample. Each
 * stem stays within the codec's error of the exact one; together they null against the MP3.
 */
export function shareCodingError(stems: Stems, heard: Pcm): Stems {
  const names = Object.keys(stems);
  const parts = names.map((name) => stems[name]!);
  const length = Math.min(...parts.map((p) => p.channels[0]!.length), heard.channels[0]!.length);
  const frameCount = Math.ceil(length / SHARE_FRAME);
  // Energy of each stem per frame; a silent frame shares equally.
  const energy = parts.map((part) => {
    const e = new Float64Array(frameCount);
    for (const channel of part.channels)
      for (let i = 0; i < length; i += 1) e[Math.floor(i / SHARE_FRAME)]! += channel[i]! ** 2;
    return e;
  });
  const weightAt = (p: number, frame: number) => {
    let total = 0;
    for (const e of energy) total += e[frame]!;
    return total > 0 ? energy[p]![frame]! / total : 1 / parts.length;
  };
  const out = parts.map((part) => ({
    rate: part.rate,
    channels: part.channels.map((c) => c.slice(0, length)),
  }));
  for (let f = 0; f < frameCount; f += 1) {
    const next = Math.min(frameCount - 1, f + 1);
    const weights = parts.map((_, p) => [weightAt(p, f), weightAt(p, next)] as const);
    const end = Math.min(length, (f + 1) * SHARE_FRAME);
    for (let i = f * SHARE_FRAME; i < end; i += 1) {
      const t = (i - f * SHARE_FRAME) / SHARE_FRAME;
      heard.channels.forEach((channel, c) => {
        let error = channel[i]!;
        for (const part of parts) error -= part.channels[c]![i]!;
        out.forEach((stem, p) => {
          const [a, b] = weights[p]!;
          stem.channels[c]![i]! += error * (a + (b - a) * t);
        });
      });
    }
  }
  return Object.fromEntries(names.map((name, p) => [name, out[p]!]));
}
