/**
 * /tune/vox and personas over HTTP: the vocal extracted by DSP from an engine song comes much
 * closer to the song's exact vocal stem than the mix does; the span and waveform aggregates;
 * personas learnt from a song or from a vocal extraction, reused by artist_consistency.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/expect.js';
import type { TestServer } from '../support/server.js';
import { decode, download, probe } from '../support/media-probe.js';
import { type Item, serverWithSong, SHORT_LYRIC, tune } from './music.js';

// Each request renders, encodes and stores whole songs: seconds of work, more on a loaded machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let server: TestServer;
let token: string;
let song: Item;

beforeAll(async () => {
  ({ server, token, song } = await serverWithSong({
    style: 'pop, piano, bass, drums, 140 bpm',
    vocal_gender: 'm',
  }));
});
afterAll(() => server.close());

type Vox = {
  id: string;
  status: string;
  source_clip_id: string;
  vocal_audio_url: string;
  vocal_start_s: number;
  vocal_end_s: number;
  wave_response: { waveform_aggregates: { data: number[][]; mip_map_level: number }[] };
};

async function vox(body: Record<string, unknown>): Promise<Vox> {
  const answer = await server.post('/tune/vox', body, token);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as Vox;
}

/** Signal-to-distortion ratio of an estimate of `reference`, in dB. */
function sdr(reference: Float32Array, estimate: Float32Array): number {
  let signal = 0;
  let error = 0;
  for (let i = 0; i < Math.min(reference.length, estimate.length); i += 1) {
    signal += reference[i]! ** 2;
    error += (reference[i]! - estimate[i]!) ** 2;
  }
  return 10 * Math.log10(signal / error);
}

describe('/tune/vox', () => {
  it('extracts the vocal: at least 6 dB better than the mix against the exact vocal stem', async () => {
    const result = await vox({ audio_id: song.id });
    expect(result.status).toBe('complete');
    expect(result.source_clip_id).toBe(song.id);
    expect((await probe(await download(result.vocal_audio_url))).streams[0]!.codec_name).toBe('mp3');
    const [exact] = await tune(server, token, { action: 'stems', audio_id: song.id });
    const reference = await decode(await download(exact!.audio_url));
    const mix = await decode(await download(song.audio_url));
    const extracted = await decode(await download(result.vocal_audio_url));
    const gain = sdr(reference, extracted) - sdr(reference, mix);
    console.log(
      `vocal SDR: mix ${sdr(reference, mix).toFixed(1)} dB, extracted ${sdr(reference, extracted).toFixed(1)} dB`,
    );
    expect(gain).toBeGreaterThanOrEqual(6);
    expect(result.vocal_start_s).toBeGreaterThanOrEqual(0);
    expect(result.vocal_end_s).toBeGreaterThan(result.vocal_start_s + 3);
    expect(result.vocal_end_s).toBeLessThanOrEqual(song.duration);
    const levels = result.wave_response.waveform_aggregates;
    expect(levels.length).toBeGreaterThanOrEqual(2);
    levels.forEach((level, n) => {
      expect(level.mip_map_level).toBe(n);
      for (const pair of level.data) {
        expect(pair).toHaveLength(2);
        expect(pair[0]!).toBeLessThanOrEqual(pair[1]!);
      }
    });
    expect(levels[1]!.data.length).toBe(Math.ceil(levels[0]!.data.length / 2));
  });

  it('extracts within vocal_start and vocal_end, and refuses a window past the end', async () => {
    const result = await vox({ audio_id: song.id, vocal_start: 2, vocal_end: 6 });
    expect(result.vocal_start_s).toBeGreaterThanOrEqual(2);
    expect(result.vocal_end_s).toBeLessThanOrEqual(6);
    const answer = await server.post('/tune/vox', { audio_id: song.id, vocal_end: song.duration + 5 }, token);
    expectError(answer, 400, 'bad_request');
    expect((answer.body.error as { message: string }).message).toMatch(/^vocal_end: must be at most/);
  });
});

describe('/tune/personas', () => {
  it('learns a voice from a song and sings with it', async () => {
    const created = await server.post(
      '/tune/personas',
      { audio_id: song.id, name: 'Deep', description: 'a low voice' },
      token,
    );
    expect(created.status, created.text).toBe(200);
    const persona = (
      created.body as { data: { persona_id: string; voice: { gender: string; register_hz: number } } }
    ).data;
    expect(persona.voice.gender).toBe('m');
    const items = await tune(server, token, {
      action: 'artist_consistency',
      persona_id: persona.persona_id,
      custom: true,
      // The voice is what is checked: at the quickest tempo, a guitar alone accompanies it.
      style: 'rock, 200 bpm',
      style_negative: 'drums, bass, organ, strings, piano',
      lyric: SHORT_LYRIC,
    });
    expect(items).toHaveLength(2);
    const refused = await server.post(
      '/tune/audios',
      { action: 'artist_consistency_vox', persona_id: persona.persona_id, custom: true, lyric: SHORT_LYRIC },
      token,
    );
    expectError(refused, 400, 'bad_request');
    expect((refused.body.error as { message: string }).message).toMatch(
      /^persona_id: must name a persona learnt from a vocal extraction/,
    );
  });

  it('learns a voice from a vocal extraction', async () => {
    const extracted = await vox({ audio_id: song.id });
    const created = await server.post(
      '/tune/personas',
      { audio_id: song.id, vox_audio_id: extracted.id, name: 'From vox' },
      token,
    );
    expect(created.status, created.text).toBe(200);
    const persona = (created.body as { data: { persona_id: string; voice: { register_hz: number } } }).data;
    expect(persona.voice.register_hz).toBeGreaterThan(70);
    expect(persona.voice.register_hz).toBeLessThan(300);
    const items = await tune(server, token, {
      action: 'artist_consistency_vox',
      persona_id: persona.persona_id,
      custom: true,
      style: 'soul, 200 bpm',
      style_negative: 'drums, bass, pad, organ, strings',
      lyric: SHORT_LYRIC,
    });
    expect(items).toHaveLength(2);
    const unknown = await server.post('/tune/personas', { audio_id: 'nope', name: 'x' }, token);
    expect(unknown.status).toBe(400);
    expect((unknown.body.error as { message: string }).message).toBe(
      'audio_id: names no audio of this token',
    );
  });
});
