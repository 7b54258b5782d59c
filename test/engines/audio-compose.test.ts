import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { biquad, filter } from '../../src/engines/audio/dsp/biquad.js';
import { fft, hann } from '../../src/engines/signal/index.js';
import { SAMPLE_RATE, frames, rms, type Pcm } from '../../src/engines/audio/dsp/pcm.js';
import { parseLyrics, syllables } from '../../src/engines/audio/compose/lyrics.js';
import { pitchTrack } from '../../src/engines/audio/analysis/pitch.js';
import { styleFromPrompt, titleFrom, writeLyrics } from '../../src/engines/audio/compose/lyric-writer.js';
import { readStyle, styleWords } from '../../src/engines/audio/compose/style.js';
import {
  planSong,
  restyle,
  secondsAt,
  varyPlan,
  type SongPlan,
  type SongSpec,
} from '../../src/engines/audio/compose/plan.js';
import { renderSong, stemNames } from '../../src/engines/audio/synth/render-song.js';
import { sing, voiceFor, type Voice } from '../../src/engines/audio/voice/singer.js';
import { renderDrums } from '../../src/engines/audio/synth/drums.js';
import { renderInstrument } from '../../src/engines/audio/synth/instruments.js';
import {
  chooseProgression,
  chordIntervals,
  chordOn,
  chordSymbol,
  hz,
  keyOf,
  pc,
  scaleOf,
} from '../../src/engines/audio/compose/theory.js';
import {
  energyOf,
  fill,
  instrumentalForm,
  layoutSections,
  shorten,
} from '../../src/engines/audio/compose/form.js';
import { playLine, singLine, type MelodyKey } from '../../src/engines/audio/compose/melody.js';
import { melodyPartOf, partsFor, rearrange, reflavour } from '../../src/engines/audio/compose/band.js';
import { partEvents } from '../../src/engines/audio/compose/arrange.js';
import { writeChords, type Frame } from '../../src/engines/audio/compose/chords.js';
import { compose } from '../../src/engines/audio/compose/song.js';
import { melodyForm, writeMelody } from '../../src/engines/audio/compose/tune.js';
import { formantsOf, syllableOf } from '../../src/engines/audio/voice/phonemes.js';
import { seeded } from '../../src/engines/random.js';

const LYRIC = `[Verse]
I walk along the empty road tonight
The city sleeps beneath the silver light
[Chorus]
Oh we are burning like a fire
Higher and higher into the sky
[Verse]
The morning comes and I am still awake
Counting every promise that we make
[Chorus]
Oh we are burning like a fire
Higher and higher into the sky
[Bridge]
Hold on, hold on
Don't let the silence win`;

const female = voiceFor('f', 1);
const male = voiceFor('m', 1);

const spec = (extra: Partial<SongSpec> = {}): SongSpec => ({
  seed: 7,
  style: 'pop',
  lyric: LYRIC,
  voice: female,
  maxSeconds: 30,
  ...extra,
});

const cents = (f: number, midi: number) => 1200 * Math.log2(f / hz(midi));

/** Pitch of a 40 ms window by normalised autocorrelation: the shortest lag whose peak is within 10% of the best. */
function pitchAt(samples: Float32Array, at: number, rate = SAMPLE_RATE): number {
  const n = Math.round(0.04 * rate);
  const start = Math.round(at * rate) - Math.floor(n / 2);
  const w = samples.subarray(start, start + n);
  const lo = Math.floor(rate / 1000);
  const hi = Math.ceil(rate / 60);
  const r = new Float64Array(hi + 2);
  for (let lag = lo; lag <= hi + 1; lag += 1) {
    let a = 0;
    let e1 = 0;
    let e2 = 0;
    for (let i = 0; i + lag < n; i += 1) {
      a += w[i]! * w[i + lag]!;
      e1 += w[i]! * w[i]!;
      e2 += w[i + lag]! * w[i + lag]!;
    }
    r[lag] = a / Math.sqrt(e1 * e2 + 1e-12);
  }
  let best = lo;
  for (let lag = lo; lag <= hi; lag += 1) if (r[lag]! > r[best]!) best = lag;
  for (let lag = lo + 1; lag <= hi; lag += 1) {
    if (r[lag]! >= 0.9 * r[best]! && r[lag]! >= r[lag - 1]! && r[lag]! >= r[lag + 1]!) {
      best = lag;
      break;
    }
  }
  const [a, b, c] = [r[best - 1]!, r[best]!, r[best + 1]!];
  const shift = (a - c) / (2 * (a - 2 * b + c));
  return rate / (best + (Number.isFinite(shift) ? shift : 0));
}

/** The strongest frequency of a signal (Hann-windowed FFT with parabolic peak interpolation). */
function peakHz(samples: Float32Array, rate = SAMPLE_RATE, size = 16384): number {
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  const window = hann(size);
  for (let i = 0; i < size && i < samples.length; i += 1) re[i] = samples[i]! * window[i]!;
  fft(re, im);
  const mag = (k: number) => Math.hypot(re[k]!, im[k]!);
  let best = 1;
  for (let k = 1; k < size / 2; k += 1) if (mag(k) > mag(best)) best = k;
  const [a, b, c] = [Math.log(mag(best - 1) + 1e-12), Math.log(mag(best)), Math.log(mag(best + 1) + 1e-12)];
  return ((best + (a - c) / (2 * (a - 2 * b + c))) * rate) / size;
}

function mixOf(stems: Record<string, Pcm>): Float32Array[] {
  const list = Object.values(stems);
  const length = frames(list[0]!);
  const out = [new Float32Array(length), new Float32Array(length)];
  for (const stem of list)
    for (let c = 0; c < 2; c += 1) for (let i = 0; i < length; i += 1) out[c]![i]! += stem.channels[c]![i]!;
  return out;
}

/** Bit-identical samples (vitest's deep equality is slow on millions of elements). */
const same = (a: Float32Array, b: Float32Array) =>
  a.length === b.length &&
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
const sameStem = (a: Pcm, b: Pcm) =>
  a.channels.length === b.channels.length && a.channels.every((c, i) => same(c, b.channels[i]!));

const peakOf = (channels: Float32Array[]) =>
  Math.max(...channels.map((ch) => ch.reduce((m, v) => Math.max(m, Math.abs(v)), 0)));

/** The share of melody and chord notes outside the plan's key. */
function nonDiatonicShare(plan: SongPlan): number {
  const scale = new Set(scaleOf(plan.root, plan.mode));
  const notes = [
    ...plan.melody.map((n) => pc(n.midi)),
    ...plan.chords.flatMap((c) => chordIntervals(c.quality).map((i) => (c.root + i) % 12)),
  ];
  return notes.filter((p) => !scale.has(p)).length / notes.length;
}

describe('style words', () => {
  it('reads an explicit tempo, a mood and a key', () => {
    expect(planSong(spec({ style: 'fast edm 128 bpm' })).bpm).toBe(128);
    const ballad = planSong(spec({ style: 'slow sad piano ballad' }));
    expect(ballad.mode).toBe('minor');
    expect(ballad.bpm).toBeLessThan(90);
    expect(stemNames(ballad)).toContain('piano');
    const keyed = planSong(spec({ style: 'rock in D minor' }));
    expect([keyed.root, keyed.mode]).toEqual([2, 'minor']);
    expect(readStyle({ style: 'jazz in Bb major' }, 1)).toMatchObject({
      root: 10,
      mode: 'major',
      genre: 'jazz',
    });
    expect(readStyle({ style: 'waltz' }, 1).beatsPerBar).toBe(3);
  });

  it('keeps out what the negative style names', () => {
    const plain = planSong(spec({ style: 'rock' }));
    expect(stemNames(plain)).toContain('drums');
    expect(stemNames(planSong(spec({ style: 'rock', styleNegative: 'drums' })))).not.toContain('drums');
    expect(stemNames(planSong(spec({ style: 'rock no drums' })))).not.toContain('drums');
    const noPiano = planSong(spec({ style: 'piano ballad', styleNegative: 'piano, strings' }));
    expect(noPiano.instruments).not.toContain('piano');
    expect(noPiano.instruments).not.toContain('strings');
    for (let seed = 0; seed < 10; seed += 1) {
      expect(
        readStyle({ style: '', negative: 'pop rock folk lofi rnb synthwave ballad house' }, seed).genre,
      ).not.toMatch(/^(pop|rock|folk|lofi|rnb|synthwave|ballad|house)$/);
      expect(readStyle({ style: 'song', negative: 'sad dark minor' }, seed).mode).not.toBe('minor');
    }
  });

  it('gives every instrument named in the style a stem that sounds', async () => {
    for (const word of [
      'flute',
      'organ',
      'bells',
      'trumpet',
      'violin',
      'electric guitar',
      'synth',
      'acoustic guitar',
    ]) {
      const plan = planSong(spec({ style: `pop with ${word}`, lyric: '', maxSeconds: 12 }));
      const name = readStyle({ style: word }, 1).parts[0]!.name;
      expect(stemNames(plan), word).toContain(name);
      const stem = (await renderSong(plan, { parts: [name] })).stems[name]!;
      expect(rms(stem), word).toBeGreaterThan(0.005);
    }
  });

  it('lets influence decide how much the seed adds', () => {
    const count = (influence: number) =>
      Array.from(
        { length: 12 },
        (_, seed) => readStyle({ style: 'folk', influence }, seed).parts.length,
      ).reduce((a, b) => a + b, 0);
    expect(count(0)).toBeGreaterThan(count(1));
    const tempos = (influence: number) =>
      new Set(Array.from({ length: 12 }, (_, seed) => readStyle({ style: 'house', influence }, seed).bpm));
    expect(tempos(1).size).toBe(1);
    expect(tempos(0).size).toBeGreaterThan(3);
  });

  it('makes weird songs measurably less diatonic', () => {
    const shares = (weirdness: number) =>
      [1, 2, 3].map((seed) => nonDiatonicShare(planSong(spec({ seed, weirdness, maxSeconds: 60 }))));
    const plain = shares(0);
    const weird = shares(1);
    console.log(
      'non-diatonic share, weirdness 0:',
      plain.map((s) => s.toFixed(3)),
      'weirdness 1:',
      weird.map((s) => s.toFixed(3)),
    );
    for (const share of plain) expect(share).toBeLessThan(0.02);
    for (const share of weird) expect(share).toBeGreaterThan(0.25);
  });

  it('gives an empty style a pleasant default and finds style words in free text', () => {
    const plan = planSong(spec({ style: '' }));
    expect(plan.instruments.length).toBeGreaterThanOrEqual(2);
    expect(plan.bpm).toBeGreaterThanOrEqual(60);
    expect(plan.bpm).toBeLessThanOrEqual(180);
    expect(styleWords('A Dreamy synthwave track at 100 BPM in F# minor with 808s')).toEqual([
      'dreamy',
      'synthwave',
      '100 bpm',
      'in F# minor',
      '808s',
    ]);
    expect(readStyle({ style: 'qwerty zxcv ♫ 🎸' }, 3).parts.length).toBeGreaterThan(0);
  });
});

describe('lyrics and form', () => {
  it('splits lines into syllables', () => {
    expect(syllables('beautiful')).toEqual(['beau', 'ti', 'ful']);
    // "fire" is one syllable here (silent e), so this line has three.
    expect(syllables('the fire burns')).toHaveLength(3);
    expect(syllables('little wanted burned fires boxes piano').map((s) => s)).toEqual([
      'lit',
      'tle',
      'wan',
      'ted',
      'burned',
      'fires',
      'bo',
      'xes',
      'pi',
      'a',
      'no',
    ]);
    expect(syllables('我爱你')).toEqual(['我', '爱', '你']);
    expect(syllables('hello 😀 world!!')).toEqual(['hel', 'lo', 'world']);
    expect(syllables('')).toEqual([]);
    expect(syllables('canción любовь')).toEqual(['can', 'ción', 'лю', 'бовь']);
    expect(syllables('नमस्ते مرحبا').length).toBeGreaterThan(2);
  });

  it('reads sections in order, text before a marker being a verse', () => {
    const sections = parseLyrics(
      'first words\n[Chorus]\nla la\n\n[Pre-Chorus]\n😀\n[Guitar Solo]\n[Coda]\nend\n[Hook]\nhey',
    );
    expect(sections.map((s) => [s.name, s.kind])).toEqual([
      ['Verse', 'verse'],
      ['Chorus', 'chorus'],
      ['Pre-Chorus', 'prechorus'],
      ['Guitar Solo', 'instrumental'],
      ['Coda', 'outro'],
      ['Hook', 'hook'],
    ]);
    expect(sections[2]!.lines).toEqual([]);
    expect(() => parseLyrics('\u0000\n[\n]\n[]\n🎵🎵\n\t\n[Verse]')).not.toThrow();
  });

  it('plans the sections in the lyric order, tiling the song', () => {
    const plan = planSong(spec({ maxSeconds: 120 }));
    const named = plan.sections.map((s) => s.name).filter((name) => name !== 'Intro' && name !== 'Outro');
    expect(named).toEqual(['Verse', 'Chorus', 'Verse', 'Chorus', 'Bridge']);
    expect(plan.sections[0]!.start).toBe(0);
    plan.sections.forEach((s, i) => {
      expect(s.end).toBeGreaterThan(s.start);
      if (i > 0) expect(s.start).toBeCloseTo(plan.sections[i - 1]!.end, 9);
    });
    expect(plan.sections[plan.sections.length - 1]!.end).toBe(plan.duration);
    // A line's bars follow its syllables: the longer verse takes at least as long as the short bridge.
    const bars = Object.fromEntries(plan.sections.map((s) => [s.name, s.bars]));
    expect(bars.Verse).toBeGreaterThanOrEqual(bars.Bridge!);
    // Every syllable is sung once, in order.
    const sung = plan.melody.filter((n) => n.text !== null).map((n) => n.text);
    expect(sung).toEqual(parseLyrics(LYRIC).flatMap((s) => s.lines.flatMap((l) => l.syllables)));
  });

  it('lays out, shortens and fills forms by bars', () => {
    const form = layoutSections(parseLyrics(LYRIC), 4, 0.5);
    expect(form.map((s) => s.bars)).toEqual([4, 4, 4, 4, 4]);
    const cut = shorten(form, 10);
    expect(cut.reduce((sum, s) => sum + s.bars, 0)).toBeLessThanOrEqual(10);
    expect(cut.flatMap((s) => s.lines).every((line) => line.bar + line.bars <= 10)).toBe(true);
    const filled = fill(form.slice(0, 1), 11);
    expect(filled.reduce((sum, s) => sum + s.bars, 0)).toBe(11);
    expect(filled.slice(1).every((s) => s.lines.length === 0)).toBe(true);
    const instrumental = instrumentalForm(seeded(1), 0.5);
    expect(instrumental[0]!.kind).toBe('intro');
    expect(energyOf('chorus', 0.5)).toBeGreaterThan(energyOf('verse', 0.5));
  });

  it('has no vocals stem when instrumental', () => {
    expect(stemNames(planSong(spec({ instrumental: true })))).not.toContain('vocals');
    expect(stemNames(planSong(spec({ lyric: '' })))).not.toContain('vocals');
    expect(stemNames(planSong(spec({ style: 'instrumental pop' })))).not.toContain('vocals');
    expect(stemNames(planSong(spec()))).toContain('vocals');
    expect(stemNames(planSong(spec({ lyric: '😀\n\n🎶' })))).not.toContain('vocals');
  });
});

describe('the sung vocal', () => {
  it('sings each note at its pitch, the male voice lower than the female', async () => {
    const medians: number[] = [];
    for (const voice of [female, { ...male, registerHz: 130 }]) {
      const plan = planSong(spec({ voice }));
      const vocals = (await renderSong(plan, { parts: ['vocals'] })).stems.vocals!;
      expect(same(vocals.channels[0]!, vocals.channels[1]!)).toBe(true);
      const notes = plan.melody.filter((n) => n.text !== null && n.duration >= 0.2);
      expect(notes.length).toBeGreaterThan(10);
      // Each note's pitch: the median of the voiced frames over its middle half. The English
      // words are sung by Festival, whose consonants have no pitch: a short note that is mostly
      // "s" and "t" ("still") has no voiced middle and is left out, the rest are measured.
      const track = pitchTrack(vocals.channels[0]!, SAMPLE_RATE, { hopSeconds: 0.01, minHz: 70, maxHz: 800 });
      const heard = notes.flatMap((n) => {
        const middle = track.subarray(
          Math.round((n.start + n.duration / 4) / 0.01),
          Math.round((n.start + (3 * n.duration) / 4) / 0.01),
        );
        const voiced = [...middle].filter((f) => f > 0).sort((a, b) => a - b);
        return voiced.length < 3 ? [] : [{ midi: n.midi, hz: voiced[voiced.length >> 1]! }];
      });
      const errors = heard.map((h) => cents(h.hz, h.midi));
      console.log(
        `${voice.gender} voice: ${heard.length} of ${notes.length} notes voiced, worst pitch error ${Math.max(...errors.map(Math.abs)).toFixed(1)} cents`,
      );
      expect(heard.length).toBeGreaterThanOrEqual(0.75 * notes.length);
      for (const error of errors) expect(Math.abs(error)).toBeLessThan(50);
      const sorted = heard.map((h) => h.hz).sort((a, b) => a - b);
      medians.push(sorted[Math.floor(sorted.length / 2)]!);
    }
    expect(medians[1]!).toBeLessThan(medians[0]! * 0.8);
  });

  it('chooses voices in their registers and sings any syllable', () => {
    for (let seed = 0; seed < 20; seed += 1) {
      const f = voiceFor('f', seed);
      const m = voiceFor('m', seed);
      expect(f.registerHz).toBeGreaterThanOrEqual(220);
      expect(f.registerHz).toBeLessThanOrEqual(330);
      expect(m.registerHz).toBeGreaterThanOrEqual(110);
      expect(m.registerHz).toBeLessThanOrEqual(165);
      expect(f.formantScale).toBeGreaterThan(m.formantScale * 1.08);
    }
    const genders = new Set(Array.from({ length: 20 }, (_, seed) => voiceFor(undefined, seed).gender));
    expect(genders).toEqual(new Set(['f', 'm']));
    const voice: Voice = {
      gender: 'f',
      registerHz: 262,
      formantScale: 1.15,
      vibratoRate: 5.5,
      vibratoDepth: 0.3,
      breathiness: 0.2,
    };
    const texts = ['la', 'sky', 'strength', '我', 'любовь', 'ن', '', '😀', 'ah'];
    const notes = texts.map((text, i) => ({ start: 0.1 + i * 0.6, duration: 0.5, midi: 60 + (i % 3), text }));
    const out = sing(notes, voice, Math.round(6 * SAMPLE_RATE));
    expect(out.every(Number.isFinite)).toBe(true);
    notes.forEach((n) =>
      expect(Math.abs(cents(pitchAt(out, n.start + 0.3), n.midi)), n.text).toBeLessThan(50),
    );
  });

  it('shapes vowels and consonants from the letters', () => {
    expect(syllableOf('see').vowels).toEqual(['i']);
    expect(syllableOf('fire').vowels).toEqual(['ɑ', 'ɪ']);
    expect(syllableOf('strong').onset.map((c) => c.kind)).toEqual(['fricative', 'plosive', 'liquid']);
    expect(syllableOf('moon')).toMatchObject({
      vowels: ['u'],
      onset: [{ kind: 'nasal' }],
      coda: [{ kind: 'nasal' }],
    });
    expect(syllableOf('爱').vowels).toHaveLength(1);
    expect(syllableOf('да').vowels).toEqual(['ɑ']);
    expect(formantsOf('i')[1]).toBeGreaterThan(formantsOf('u')[1] * 2);
  });
});

describe('plans', () => {
  it('respects maxSeconds and renders stems of exactly the planned length', async () => {
    for (const maxSeconds of [8, 20, 45]) {
      const plan = planSong(spec({ maxSeconds }));
      expect(plan.duration).toBeLessThanOrEqual(maxSeconds);
      expect(plan.duration).toBeGreaterThan(maxSeconds * 0.6);
      expect(plan.melody.every((n) => n.start + n.duration <= plan.duration + 1e-9)).toBe(true);
    }
    const plan = planSong(spec({ maxSeconds: 12 }));
    const { stems, duration } = await renderSong(plan);
    expect(duration).toBe(plan.duration);
    for (const stem of Object.values(stems))
      expect(frames(stem)).toBe(Math.round(plan.duration * SAMPLE_RATE));
  });

  it('makes exactly `seconds` when asked, fading the last bar', async () => {
    for (const seconds of [7.3, 15, 33.33]) {
      const plan = planSong(spec({ seconds, maxSeconds: 300 }));
      expect(plan.duration).toBe(seconds);
      expect(plan.sections[plan.sections.length - 1]!.end).toBe(seconds);
      expect(plan.fadeOut).toBeGreaterThan(0);
      expect(plan.fadeOut).toBeLessThanOrEqual((1.25 * plan.beatsPerBar * 60) / plan.bpm + 1e-9);
      const { stems } = await renderSong(plan, { parts: ['vocals', 'bass'] });
      for (const stem of Object.values(stems))
        expect(Math.abs(frames(stem) - seconds * SAMPLE_RATE)).toBeLessThanOrEqual(1);
    }
  });

  it('continues a base song on its grid, key and band', () => {
    const base = planSong(spec({ style: 'house' }));
    expect(base.swing).toBe(0.1);
    const straight = planSong(spec({ style: 'edm' }));
    for (const at of [5.31, straight.duration, 12]) {
      const part = planSong(
        spec({ base: straight, at, seconds: 10, lyric: '[Verse]\nsomething new is coming\nover the hill' }),
      );
      expect([part.bpm, part.root, part.mode, part.beatsPerBar]).toEqual([
        straight.bpm,
        straight.root,
        straight.mode,
        straight.beatsPerBar,
      ]);
      expect(part.instruments).toEqual(straight.instruments);
      expect(part.voice).toEqual(straight.voice);
      const beat = 60 / straight.bpm;
      expect(part.melody.length).toBeGreaterThan(3);
      for (const note of [...part.melody, ...part.chords]) {
        const sixteenths = ((note.start + at - straight.firstBeat) / beat) * 4;
        expect(Math.abs(sixteenths - Math.round(sixteenths))).toBeLessThan(1e-6);
      }
      // Inside the base song the chords are the base's own.
      for (const chord of part.chords) {
        const t = chord.start + at + 0.01;
        const under = straight.chords.find((c) => c.start <= t && t < c.start + c.duration);
        if (under && chord.start >= 0) expect(chord.symbol).toBe(under.symbol);
      }
    }
  });

  it('follows a given melody', () => {
    const melody = [60, 62, 64, 65, 67, 65, 64, 62, 60].map((midi, i) => ({ beat: i, beats: 1, midi }));
    const played = planSong(spec({ lyric: '', melody, style: 'folk' }));
    expect(played.melody.map((n) => [n.beat, n.beats, pc(n.midi)])).toEqual(
      melody.map((n) => [n.beat, n.beats, pc(n.midi)]),
    );
    expect(played.root).toBe(0);
    const sung = planSong(spec({ lyric: 'la la la la la la la la la', melody, style: 'folk' }));
    expect(sung.melody.map((n) => n.text)).toEqual(Array(9).fill('la'));
    expect(new Set(sung.melody.map((n, i) => n.midi - melody[i]!.midi)).size).toBe(1);
  });

  it('restyles a song into a cover with the same tune and words', () => {
    const plan = planSong(spec({ style: 'pop piano' }));
    const cover = restyle(plan, { seed: 3, style: 'metal with electric guitar' });
    expect(cover.melody.map((n) => [n.midi, n.text])).toEqual(plan.melody.map((n) => [n.midi, n.text]));
    expect(cover.sections.map((s) => s.lines)).toEqual(plan.sections.map((s) => s.lines));
    expect(cover.bpm).not.toBe(plan.bpm);
    expect(cover.instruments).not.toEqual(plan.instruments);
    expect(cover.instruments).toContain('guitar');
    const ratio = plan.bpm / cover.bpm;
    const note = plan.melody[10]!;
    expect(cover.melody[10]!.start).toBeCloseTo(note.start * ratio, 6);
    const half = restyle(plan, { seed: 3, style: 'metal', keepTempo: 1 });
    expect(half.bpm).toBe(plan.bpm);
    expect(stemNames(cover)).toContain('vocals');
  });

  it('varies a song subtly, normally or a lot', () => {
    const plan = planSong(spec({ style: 'pop' }));
    const subtle = varyPlan(plan, 'subtle', 99);
    expect([subtle.bpm, subtle.root, subtle.instruments]).toEqual([plan.bpm, plan.root, plan.instruments]);
    const changed =
      subtle.melody.filter((n, i) => n.midi !== plan.melody[i]!.midi).length / plan.melody.length;
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThan(0.3);
    expect(subtle.melody.map((n) => n.text)).toEqual(plan.melody.map((n) => n.text));
    const normal = varyPlan(plan, 'normal', 99);
    expect([normal.bpm, normal.root, normal.mode]).toEqual([plan.bpm, plan.root, plan.mode]);
    expect(normal.parts.map((p) => p.role)).not.toEqual(plan.parts.map((p) => p.role));
    const high = varyPlan(plan, 'high', 99);
    expect(high.bpm).not.toBe(plan.bpm);
    expect(high.root).not.toBe(plan.root);
    const differ = (a: SongPlan) =>
      a.melody.filter((n, i) => n.midi !== plan.melody[i]?.midi).length / plan.melody.length;
    expect(differ(high)).toBeGreaterThan(differ(subtle));
    expect(high.melody.filter((n) => n.text !== null).map((n) => n.text)).toEqual(
      plan.melody.filter((n) => n.text !== null).map((n) => n.text),
    );
  });

  it('is plain data that survives JSON', async () => {
    const plan = planSong(spec());
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
    const again = (await renderSong(JSON.parse(JSON.stringify(plan)) as SongPlan, { parts: ['bass'] })).stems
      .bass!;
    expect(sameStem(again, (await renderSong(plan, { parts: ['bass'] })).stems.bass!)).toBe(true);
  });

  it('swings the off-beat eighths', () => {
    const grid = { bpm: 60, firstBeat: 1, swing: 1 };
    expect(secondsAt(grid, 0.5)).toBeCloseTo(1 + 2 / 3, 9);
    expect(secondsAt(grid, 2)).toBeCloseTo(3, 9);
    expect(secondsAt({ ...grid, swing: 0 }, 0.75)).toBeCloseTo(1.75, 9);
  });
});

describe('harmony and melody writing', () => {
  it('names chords and builds them from the key', () => {
    expect([hz(69), hz(57), hz(81)]).toEqual([440, 220, 880]);
    expect(chordSymbol(9, 'min')).toBe('Am');
    expect(chordSymbol(10, '7')).toBe('Bb7');
    expect(chordOn('jazz', 0, 'major', 4, false)).toEqual({ root: 7, quality: '7' });
    expect(chordOn('blues', 0, 'major', 3, false)).toEqual({ root: 5, quality: '7' });
    expect(chordOn('classical', 9, 'minor', 4, true)).toEqual({ root: 4, quality: 'maj' });
    expect(chordOn('pop', 9, 'minor', 4, true)).toEqual({ root: 4, quality: 'min' });
    const progression = chooseProgression('pop', 'major', seeded(2));
    expect(progression.verse.length).toBeGreaterThanOrEqual(4);
    expect(chooseProgression('blues', 'major', seeded(2)).verse).toHaveLength(12);
    expect(
      keyOf(
        [57, 59, 60, 62, 64, 65, 67, 69, 64, 60, 57].map((midi) => ({ midi, beats: midi === 57 ? 3 : 1 })),
      ),
    ).toEqual({
      root: 9,
      mode: 'minor',
    });
  });

  it('writes singable lines on chord tones and the grid', () => {
    const key: MelodyKey = {
      root: 0,
      mode: 'major',
      tonic: 60,
      beatsPerBar: 4,
      weirdness: 0,
      chordAt: (beat) =>
        Math.floor(beat / 4) % 2 === 0 ? { root: 0, quality: 'maj' } : { root: 7, quality: 'maj' },
    };
    const line = singLine(key, syllables('I walk along the empty road tonight'), 8, 2, 5, 'verse', true);
    expect(line.map((n) => n.text)).toEqual(syllables('I walk along the empty road tonight'));
    expect(line[0]!.beat).toBeGreaterThanOrEqual(8);
    const end = line[line.length - 1]!;
    expect(end.beat + end.beats).toBeLessThanOrEqual(8 + 8 - 1 + 1e-9);
    expect(pc(end.midi)).toBe(0);
    for (const n of line) expect(scaleOf(0, 'major')).toContain(pc(n.midi));
    expect(singLine(key, syllables('I walk along'), 0, 2, 5, 'verse', false)).toEqual(
      singLine(key, syllables('I walk along'), 0, 2, 5, 'verse', false),
    );
    const played = playLine(key, 0, 4, 4, 9, 'chorus');
    expect(played.length).toBeGreaterThanOrEqual(8);
    expect(played.every((n) => n.text === null && n.beat >= 0 && n.beat < 16)).toBe(true);
    const long = singLine(key, Array(40).fill('la'), 0, 4, 1, 'verse', false);
    expect(long.length).toBeLessThanOrEqual(40);
    expect(long[long.length - 1]!.beat + long[long.length - 1]!.beats).toBeLessThanOrEqual(16);
  });

  it("writes a chord a bar, ending home, borrowing a base song's chords", () => {
    const frame: Frame = {
      bpm: 120,
      beatsPerBar: 4,
      firstBeat: 0,
      swing: 0,
      root: 7,
      mode: 'major',
      harmony: 'pop',
      weirdness: 0,
    };
    const form = layoutSections(parseLyrics(LYRIC), 4, 0.5);
    const chords = writeChords(frame, form, 21, seeded(3), undefined, true);
    expect(chords).toHaveLength(21);
    const scale = scaleOf(7, 'major');
    for (const chord of chords)
      for (const i of chordIntervals(chord.quality)) expect(scale).toContain((chord.root + i) % 12);
    expect(chords[20]).toEqual({ root: 7, quality: 'maj' });
    // The second chorus repeats the first one's chords.
    expect(chords.slice(12, 16)).toEqual(chords.slice(4, 8));
    const base = [
      { beat: 0, beats: 4, start: 0, duration: 100, root: 1, quality: 'dim' as const, symbol: 'C#dim' },
    ];
    expect(writeChords(frame, form, 4, seeded(3), { chords: base, at: 0 }, false)).toEqual(
      Array(4).fill({ root: 1, quality: 'dim' }),
    );
  });

  it("writes the whole tune: sung lines in the voice's range, played sections, given melodies", () => {
    const frame: Frame = {
      bpm: 100,
      beatsPerBar: 4,
      firstBeat: 0,
      swing: 0,
      root: 0,
      mode: 'minor',
      harmony: 'pop',
      weirdness: 0,
    };
    const form = layoutSections(parseLyrics(LYRIC), 4, 0.5);
    const chords = writeChords(frame, form, 21, seeded(3), undefined, true);
    const parts = partsFor(readStyle({ style: 'pop with flute' }, 1).parts);
    for (const voice of [female, male]) {
      const tune = writeMelody(frame, form, chords, voice, true, 4, null, parts);
      const centre = 69 + 12 * Math.log2(voice.registerHz / 440);
      for (const note of tune) {
        expect(note.midi).toBeGreaterThanOrEqual(centre - 8);
        expect(note.midi).toBeLessThanOrEqual(centre + 10);
      }
    }
    const instrumental = instrumentalForm(seeded(2), 0.5);
    const played = writeMelody(
      frame,
      instrumental,
      writeChords(frame, instrumental, 60, seeded(1), undefined, true),
      female,
      false,
      4,
      null,
      parts,
    );
    expect(played.length).toBeGreaterThan(20);
    expect(played.every((n) => n.text === null)).toBe(true);
    const given = [
      { beat: 0, beats: 2, midi: 40 },
      { beat: 2, beats: 2, midi: 43 },
      { beat: 5, beats: 3, midi: 45 },
    ];
    const shape = melodyForm(form, given, 4, 0.5, true);
    expect(shape).toHaveLength(1);
    expect(shape[0]!.bars).toBe(2);
    const sung = writeMelody(frame, shape, chords, female, true, 4, given, parts);
    expect(sung.slice(0, 2).map((n) => n.text)).toEqual(['I', 'walk']);
    // More words than notes: the last note carries the rest.
    expect(sung[2]!.text).toMatch(/^a long the emp ty road/);
    expect(new Set(sung.map((n, i) => (n.midi - given[i]!.midi) % 12)).size).toBe(1);
  });

  it('plans from what an earlier plan hands down', () => {
    const plan = compose(spec({ style: 'metal in E minor' }), {
      bpm: 100,
      root: 5,
      mode: 'dorian',
      beatsPerBar: 3,
    });
    expect([plan.bpm, plan.root, plan.mode, plan.beatsPerBar]).toEqual([100, 5, 'dorian', 3]);
    expect(plan.genre).toBe('metal');
  });

  it('deals the band: pans, melody part, other roles, chord colours', () => {
    const parts = partsFor(readStyle({ style: 'jazz with flute' }, 1).parts);
    expect(parts.find((p) => p.name === 'bass')!.pan).toBe(0);
    for (const part of parts.filter((p) => p.name !== 'bass'))
      expect(Math.abs(part.pan)).toBeGreaterThan(0.2);
    expect(melodyPartOf(parts)).toBe('flute');
    const other = rearrange(parts, seeded(1));
    expect(other.filter((p, i) => p.role !== parts[i]!.role).length).toBeGreaterThan(0);
    expect(reflavour('maj', 'jazz', false)).toBe('maj7');
    expect(reflavour('maj', 'jazz', true)).toBe('7');
    expect(reflavour('m7', 'pop', false)).toBe('min');
  });
});

describe('instruments and drums', () => {
  it('plays each instrument of the soundfont in tune, and a note ends with its release', async () => {
    const rate = SAMPLE_RATE;
    const note = [{ start: 0, duration: 1, midi: 57, velocity: 0.8 }];
    const options = { rate, seed: 1, brightness: 0.5, weirdness: 0 };
    const parts = [
      ['piano', 'grand'],
      ['piano', 'electric'],
      ['guitar', 'acoustic'],
      ['guitar', 'nylon'],
      ['bass', 'electric'],
      ['bass', 'upright'],
      ['pad', 'warm'],
      ['strings', 'ensemble'],
      ['organ', 'drawbar'],
      ['bells', 'glass'],
      ['lead', 'saw'],
      ['brass', 'section'],
      ['brass', 'sax'],
      ['flute', 'concert'],
    ] as const;
    const played = await Promise.all(
      parts.map(([name, variant]) => renderInstrument({ name, variant }, note, 3 * rate, options)),
    );
    for (const [i, [name, variant]] of parts.entries()) {
      const out = played[i]!;
      // A sampled note's period or its strongest partial can sit an octave or two above the
      // note (an organ's drawbars, a flute's breath): its pitch class is what is played.
      const offs = [pitchAt(out, 0.5), peakHz(out.subarray(Math.round(0.2 * rate)))].map((f) => {
        const off = ((cents(f, 57) % 1200) + 1200) % 1200;
        return Math.min(off, 1200 - off);
      });
      expect(Math.min(...offs), `${name} ${variant}: ${offs.map((o) => o.toFixed(0))} cents`).toBeLessThan(
        35,
      );
      const playing = rms({ rate, channels: [out.subarray(0, rate)] });
      expect(playing, `${name} ${variant} sounds`).toBeGreaterThan(1e-3);
      // Two seconds after the note (a pad's release is the longest) it has died away.
      expect(rms({ rate, channels: [out.subarray(Math.round(2.8 * rate))] }), name).toBeLessThan(
        playing / 30,
      );
    }
  });

  it('puts bass, kick and vocal in the centre and the rest off it', async () => {
    const plan = planSong(spec({ style: 'pop with acoustic guitar and strings', maxSeconds: 15 }));
    const { stems } = await renderSong(plan);
    const balance = (pcm: Pcm) =>
      rms({ rate: 1, channels: [pcm.channels[0]!] }) / rms({ rate: 1, channels: [pcm.channels[1]!] });
    expect(balance(stems.vocals!)).toBeCloseTo(1, 6);
    expect(balance(stems.bass!)).toBeCloseTo(1, 6);
    for (const name of ['piano', 'guitar', 'strings', 'pad'].filter((n) => stems[n])) {
      expect(Math.abs(Math.log(balance(stems[name]!))), name).toBeGreaterThan(0.3);
    }
  });

  it('lands the kick on the beat', async () => {
    const plan = planSong(spec({ style: 'edm', maxSeconds: 20, lyric: '' }));
    expect(plan.drums?.pattern).toBe('four');
    const drums = await renderDrums(plan, Math.round(plan.duration * SAMPLE_RATE));
    // The kick is what is left below 150 Hz.
    const left = filter(drums.channels[0]!.slice(), biquad('lowpass', 150, SAMPLE_RATE));
    const beat = 60 / plan.bpm;
    const chorus = plan.sections.find((s) => s.energy >= 0.45 && s.bars >= 4)!;
    const energyAt = (t: number) => {
      let sum = 0;
      const from = Math.round(t * SAMPLE_RATE);
      for (let i = from; i < from + 441; i += 1) sum += left[i]! * left[i]!;
      return sum;
    };
    for (let k = 1; k < 6; k += 1) {
      const t = chorus.start + k * beat;
      // Each beat starts a new kick: far more low end just after it than just before.
      expect(energyAt(t)).toBeGreaterThan(4 * energyAt(t - 0.015));
    }
  });

  it('derives every part from the plan', () => {
    const plan = planSong(spec({ style: 'folk', maxSeconds: 20 }));
    for (const part of plan.parts) {
      const events = partEvents(plan, part);
      expect(events.length, part.name).toBeGreaterThan(plan.bars);
      expect(events.every((e) => e.duration > 0 && e.start < plan.duration)).toBe(true);
    }
  });
});

describe('rendering', () => {
  it('is deterministic by seed', async () => {
    const a = await renderSong(planSong(spec({ maxSeconds: 10 })));
    const b = await renderSong(planSong(spec({ maxSeconds: 10 })));
    expect(Object.keys(b.stems)).toEqual(Object.keys(a.stems));
    for (const name of Object.keys(a.stems))
      expect(sameStem(b.stems[name]!, a.stems[name]!), name).toBe(true);
    const c = await renderSong(planSong(spec({ maxSeconds: 10, seed: 8 })));
    expect(same(mixOf(c.stems)[0]!, mixOf(a.stems)[0]!)).toBe(false);
  });

  it('renders only the stems asked for, the same as in the full render', async () => {
    const plan = planSong(spec({ maxSeconds: 16 }));
    const full = (await renderSong(plan)).stems;
    const vocals = (await renderSong(plan, { parts: ['vocals'] })).stems;
    expect(Object.keys(vocals)).toEqual(['vocals']);
    expect(sameStem(vocals.vocals!, full.vocals!)).toBe(true);
    const band = (await renderSong(plan, { parts: stemNames(plan).filter((n) => n !== 'vocals') })).stems;
    expect(Object.keys(band).sort()).toEqual(
      Object.keys(full)
        .filter((n) => n !== 'vocals')
        .sort(),
    );
    for (const name of Object.keys(band)) expect(sameStem(band[name]!, full[name]!), name).toBe(true);
  });

  it('leaves headroom in the summed mix', async () => {
    const peaks: number[] = [];
    for (const [seed, style] of [
      [1, 'edm'],
      [2, 'rock'],
      [3, 'jazz'],
      [4, 'trap'],
      [5, 'classical'],
    ] as const) {
      const { stems } = await renderSong(planSong(spec({ seed, style, maxSeconds: 12 })));
      const mix = mixOf(stems);
      peaks.push(peakOf(mix));
      if (seed === 1) {
        // An independent reading of the same mix by ffmpeg.
        const interleaved = new Float32Array(mix[0]!.length * 2);
        mix[0]!.forEach((v, i) => {
          interleaved[2 * i] = v;
          interleaved[2 * i + 1] = mix[1]![i]!;
        });
        const report = await new Promise<string>((resolve, reject) => {
          const child = execFile(
            'ffmpeg',
            [
              '-hide_banner',
              '-f',
              'f32le',
              '-ar',
              '44100',
              '-ac',
              '2',
              '-i',
              'pipe:0',
              '-af',
              'astats=measure_perchannel=none',
              '-f',
              'null',
              '-',
            ],
            (error, _stdout, stderr) => (error ? reject(error) : resolve(stderr)),
          );
          child.stdin!.end(Buffer.from(interleaved.buffer));
        });
        const peakDb = Number(/Peak level dB:\s*(-?[\d.]+)/.exec(report)?.[1]);
        console.log('ffmpeg astats peak of an edm mix:', peakDb, 'dBFS');
        expect(peakDb).toBeLessThan(-1);
        expect(peakDb).toBeGreaterThan(-15);
      }
    }
    console.log('mix peaks (dBFS):', peaks.map((p) => (20 * Math.log10(p)).toFixed(1)).join(' '));
    for (const peak of peaks) {
      expect(peak).toBeLessThan(0.98);
      expect(peak).toBeGreaterThan(0.1);
    }
  });

  // Its speed is measured by bench/music.mjs (compose only), not timed here.
  it('plans and renders 30 s with vocals and five instruments', async () => {
    const plan = planSong(
      spec({ style: 'pop with piano, acoustic guitar, strings and pad', maxSeconds: 30, seed: 21 }),
    );
    const { stems } = await renderSong(plan);
    const instruments = Object.keys(stems).filter((n) => n !== 'vocals' && n !== 'drums');
    expect(stems.vocals).toBeDefined();
    expect(instruments.length).toBeGreaterThanOrEqual(5);
    expect(plan.duration).toBeGreaterThan(25);
  });
});

describe('the lyric writer', () => {
  it('writes lyrics with markers from any prompt, the same each time', () => {
    for (const prompt of [
      'A song about rain on the window and a long drive home',
      '一首关于下雨和回家的歌',
      '',
    ]) {
      const lyric = writeLyrics(prompt, 5);
      expect(writeLyrics(prompt, 5)).toBe(lyric);
      expect(lyric).toMatch(/^\[Verse\]/);
      expect(lyric).toContain('[Chorus]');
      expect(lyric).toContain('[Verse 2]');
      const lines = lyric.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('['));
      expect(lines.length).toBeGreaterThanOrEqual(8);
      for (const line of lines) expect(syllables(line).length).toBeLessThanOrEqual(16);
      const sections = parseLyrics(lyric);
      expect(sections.map((s) => s.kind).slice(0, 4)).toEqual(['verse', 'chorus', 'verse', 'chorus']);
    }
    expect(writeLyrics('rain', 1)).not.toBe(writeLyrics('rain', 2));
    // A short song: one verse and one chorus, and "short" is no word of the lyrics.
    for (const prompt of [
      'a short song about rain',
      'a brief jingle for a bakery',
      'a short happy pop song',
    ]) {
      const short = writeLyrics(prompt, 5);
      expect(parseLyrics(short).map((s) => s.kind)).toEqual(['verse', 'chorus']);
      expect(short).not.toMatch(/short|brief|jingle/i);
    }
    // "short" that describes something else leaves the whole form.
    expect(writeLyrics('a song about a short man and a long road', 5)).toContain('[Verse 2]');
    expect(writeLyrics('A song about rain on the window', 5)).toMatch(/rain|window/);
    expect(writeLyrics('一首关于下雨的歌', 5)).toMatch(/[\u4e00-\u9fff]/);
  });

  it('titles songs and finds style words in descriptions', () => {
    for (const prompt of ['a sad piano ballad about rain', '一首关于下雨的歌', '', 'x'.repeat(500)]) {
      const title = titleFrom(prompt, 3);
      expect(title.length).toBeGreaterThan(0);
      expect([...title].length).toBeLessThanOrEqual(80);
      expect(titleFrom(prompt, 3)).toBe(title);
    }
    expect(titleFrom('a sad piano ballad about rain', 3).toLowerCase()).toContain('rain');
    const style = styleFromPrompt('a sad piano ballad about rain');
    for (const word of ['sad', 'piano', 'ballad']) expect(style).toContain(word);
    expect(styleFromPrompt('an upbeat funk tune with brass, 110 bpm')).toBe('upbeat funk brass 110 bpm');
  });
});
