/**
 * Editing actions of /tune/audios over HTTP: extend and concat (durations add up), stems and
 * all_stems (they sum back to the song), remaster (loudness by ffmpeg's ebur128), the windowed
 * edits, mashup, samples and covers (the upload actions are in uploads.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/expect.js';
import type { TestServer } from '../support/server.js';
import { decode, download, loudness, residualDb, sum } from '../support/media-probe.js';
import { type Item, serverWithSong, SHORT_LYRIC, tune } from './music.js';

// Each request renders, encodes and stores whole songs: seconds of work, more on a loaded machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let server: TestServer;
let token: string;
let song: Item;

beforeAll(async () => {
  ({ server, token, song } = await serverWithSong({
    title: 'Glow',
    // The engine's quickest tempo keeps the song near 10 s, still longer than every window below;
    // punk's own band and no more (influence 1) make four stems: vocals, drums, guitar and bass.
    style: 'punk, 200 bpm',
    style_influence: 1,
  }));
});
afterAll(() => server.close());

describe('/tune/audios editing', () => {
  it('extends from continue_at, and concat joins the whole song', async () => {
    // A line of new words: without words an extension is a 30 s instrumental (uploads.test.ts).
    const extensions = await tune(server, token, {
      action: 'extend',
      audio_id: song.id,
      continue_at: 6,
      lyric: '[Verse]\nHigher and higher we go',
    });
    // tune() has checked each file's length against its item's duration with ffprobe.
    expect(extensions).toHaveLength(2);
    const extension = extensions[0]!;
    const [whole] = await tune(server, token, { action: 'concat', audio_id: extension.id });
    expect(whole!.duration).toBeCloseTo(6 + extension.duration, 1);
    // The whole song begins with the original's first six seconds.
    const [original, joined] = await Promise.all([
      decode(await download(song.audio_url)),
      decode(await download(whole!.audio_url)),
    ]);
    expect(residualDb(original.subarray(0, 5.5 * 88200), joined.subarray(0, 5.5 * 88200))).toBeLessThan(-30);
  });

  it('takes a song apart into stems that sum back to it (residual below -40 dB)', async () => {
    const mix = await decode(await download(song.audio_url));
    const two = await tune(server, token, { action: 'stems', audio_id: song.id });
    expect(two.map((s) => s.title)).toEqual(['Glow (Vocals)', 'Glow (Instrumental)']);
    expect(two[0]!.lyric).toBe(SHORT_LYRIC);
    const all = await tune(server, token, { action: 'all_stems', audio_id: song.id });
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const stems of [two, all]) {
      // tune() has checked that a .wav is float PCM.
      for (const stem of stems) expect(stem.audio_url).toMatch(/\.wav$/);
      const parts = await Promise.all(stems.map(async (stem) => decode(await download(stem.audio_url))));
      expect(residualDb(mix, sum(parts))).toBeLessThan(-40);
    }
  });

  it('remasters to -14 LUFS with the true peak at or under -1 dBTP', async () => {
    const [mastered] = await tune(server, token, { action: 'remaster', audio_id: song.id });
    expect(mastered!.title).toBe('Glow (Remastered)');
    const measured = await loudness(await download(mastered!.audio_url));
    expect(Math.abs(measured.lufs + 14)).toBeLessThanOrEqual(0.5);
    expect(measured.truePeak).toBeLessThanOrEqual(-1);
  });

  it('replaces a section and keeps the rest and the length', async () => {
    const [edited] = await tune(server, token, {
      action: 'replace_section',
      audio_id: song.id,
      replace_section_start: 4,
      replace_section_end: 8,
    });
    expect(edited!.duration).toBeCloseTo(song.duration, 1);
    const [before, after] = await Promise.all([
      decode(await download(song.audio_url)),
      decode(await download(edited!.audio_url)),
    ]);
    const head = 3.9 * 88200;
    expect(residualDb(before.subarray(0, head), after.subarray(0, head))).toBeLessThan(-30);
    const window = [Math.round(4.5 * 88200), Math.round(7.5 * 88200)];
    expect(
      residualDb(before.subarray(window[0], window[1]), after.subarray(window[0], window[1])),
    ).toBeGreaterThan(-10);
  });

  it('adds accompaniment under a window and a vocal over one', async () => {
    const [under] = await tune(server, token, {
      action: 'underpainting',
      audio_id: song.id,
      underpainting_start: 2,
      underpainting_end: 6,
    });
    const [over] = await tune(server, token, {
      action: 'overpainting',
      audio_id: song.id,
      overpainting_start: 2,
      overpainting_end: 6,
      lyric: '[Verse]\nHigher and higher we go',
    });
    const original = await decode(await download(song.audio_url));
    for (const item of [under!, over!]) {
      expect(item.duration).toBeCloseTo(song.duration, 1);
      const edited = await decode(await download(item.audio_url));
      const inside = [Math.round(2.5 * 88200), Math.round(5.5 * 88200)];
      expect(
        residualDb(original.subarray(inside[0], inside[1]), edited.subarray(inside[0], inside[1])),
      ).toBeGreaterThan(-20);
      const outside = Math.round(6.5 * 88200);
      expect(residualDb(original.subarray(outside), edited.subarray(outside))).toBeLessThan(-30);
    }
    expect(over!.lyric).toBe('[Verse]\nHigher and higher we go');
  });

  it('refuses windows that reach the end of the song', async () => {
    const answer = await server.post(
      '/tune/audios',
      { action: 'samples', audio_id: song.id, samples_end: song.duration + 1 },
      token,
    );
    expectError(answer, 400, 'bad_request');
    expect((answer.body.error as { message: string }).message).toMatch(
      /^samples_end: must be less than the song's duration/,
    );
  });

  it('cuts loops of whole bars from a window', async () => {
    const loops = await tune(server, token, {
      action: 'samples',
      audio_id: song.id,
      samples_start: 1,
      samples_end: 5,
    });
    expect(loops[0]!.title).toContain('mix loop');
    // Bars of 1.2 s at 200 bpm: the 4 s window holds three whole ones.
    const bar = (4 * 60) / 200;
    for (const loop of loops) {
      expect(loop.duration / bar).toBeCloseTo(Math.round(loop.duration / bar), 2);
      expect(loop.duration).toBeGreaterThanOrEqual(bar);
      expect(loop.duration).toBeLessThanOrEqual(4);
    }
  });

  it('covers a song in a new style, keeping its lyrics, and mashes the cover up to the song’s length', async () => {
    // A slower tempo (exp(0.2 ln 200 + 0.8 ln 150) = 159 bpm): the cover lasts about 2 s longer.
    const style = 'jazz, upright bass, brushes, 150 bpm';
    const covers = await tune(server, token, {
      action: 'cover',
      audio_id: song.id,
      style,
      audio_weight: 0.2,
    });
    expect(covers).toHaveLength(2);
    for (const item of covers) {
      expect(item.lyric).toBe(SHORT_LYRIC);
      expect(item.style).toBe(style);
    }
    // The cover is stretched to the song's tempo, and the mashup lasts as long as the song.
    const other = covers[0]!;
    expect(Math.abs(other.duration - song.duration)).toBeGreaterThan(1);
    const [mashed] = await tune(server, token, { action: 'mashup', mashup_audio_ids: [song.id, other.id] });
    expect(mashed!.duration).toBeCloseTo(song.duration, 1);
    expect(mashed!.title).toContain('×');
  });

  it('keeps each token to its own audios', async () => {
    const stranger = await server.token();
    const answer = await server.post('/tune/audios', { action: 'remaster', audio_id: song.id }, stranger);
    expectError(answer, 400, 'bad_request');
    expect((answer.body.error as { message: string }).message).toBe('audio_id: names no audio of this token');
  });
});
