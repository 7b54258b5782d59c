/**
 * /tune/audios generation over HTTP on the local audio engine: two items per generation with
 * every Music item field, an MP3 whose duration ffprobe confirms, a cover PNG and a music video
 * (H.264 and AAC); instrumental; the ndjson stream of snapshots, of songs made in description
 * mode; bad input.
 */
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/expect.js';
import type { TestServer } from '../support/server.js';
import { download, durationOf, probe } from '../support/media-probe.js';
import { dataUrl, type Item, musicServer, SHORT_LYRIC, tune, uploadedSong } from './music.js';

// Each request renders, encodes and stores whole songs: seconds of work, more on a loaded machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await musicServer();
  token = await server.token();
});
afterAll(() => server.close());

describe('/tune/audios generate', () => {
  it('makes two songs from lyrics, with MP3, cover and video files', async () => {
    const items = await tune(server, token, {
      action: 'generate',
      custom: true,
      title: 'River Road',
      // The engine's quickest tempo: seven bars of the short lyric last about 10 s.
      style: 'folk, acoustic guitar, 200 bpm',
      // The guitar alone: every part of a band is rendered, encoded and kept on its own.
      style_negative: 'bass, drums',
      lyric: SHORT_LYRIC,
      vocal_gender: 'f',
      model: 'tune-v4-5',
    });
    expect(items).toHaveLength(2);
    expect(items[0]!.id).not.toBe(items[1]!.id);
    for (const item of items) {
      expect(item).toMatchObject({
        title: 'River Road',
        style: 'folk, acoustic guitar, 200 bpm',
        lyric: SHORT_LYRIC,
        model: 'tune-v4-5',
      });
      expect(item.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const audio = await probe(await download(item.audio_url));
      expect(audio.format.format_name).toBe('mp3');
      expect(audio.streams[0]!.codec_name).toBe('mp3');
      expect(Math.abs(durationOf(audio) - item.duration)).toBeLessThan(0.1);
      expect(item.duration).toBeGreaterThan(8);
      const cover = PNG.sync.read(await download(item.image_url));
      expect([cover.width, cover.height]).toEqual([512, 512]);
      const video = await probe(await download(item.video_url));
      expect(video.streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      expect(Math.abs(durationOf(video) - item.duration)).toBeLessThan(0.2);
    }
    const [a, b] = await Promise.all(items.map((item) => download(item.audio_url)));
    expect(a!.equals(b!)).toBe(false);
  });

  it('leaves the vocal out of an instrumental', async () => {
    // An instrumental takes its whole form (41 or 57 bars): three beats a bar at 200 bpm make it
    // 38 or 53 s, where four at 80 bpm made it two or three minutes. The piano alone plays it
    // (every part is rendered, kept and read back on its own: the whole band cost twice the CPU).
    const [song] = await tune(server, token, {
      action: 'generate',
      custom: true,
      instrumental: true,
      style: 'lofi piano waltz, 200 bpm',
      style_negative: 'drums, bass, pad',
      style_influence: 1,
      lyric: SHORT_LYRIC,
    });
    expect(song!.lyric).toBe('');
    const stems = await tune(server, token, { action: 'stems', audio_id: song!.id });
    expect(stems.map((s) => s.title)).toEqual([expect.stringContaining('(Instrumental)')]);
  });

  it('streams snapshots as ndjson, the last one terminal, of songs derived from a description', async () => {
    // "short": a verse and a chorus, not the whole form (the lyric writer's own test covers both);
    // at 200 bpm they last about 29 s.
    const prompt = 'a short happy pop song at 200 bpm about summer at the beach';
    // The words are what is checked: a piano alone accompanies them.
    const body = { action: 'generate', prompt, style_negative: 'drums, bass, pad' };
    const response = await server.send('/tune/audios', body, token, { accept: 'application/x-ndjson' });
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { data: Item[] });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(['pending', 'running']).toContain(lines[0]!.data[0]!.state);
    const last = lines[lines.length - 1]!;
    expect(last.data.map((item) => item.state)).toEqual(['succeeded', 'succeeded']);
    for (const item of last.data) {
      expect(item.audio_url).toMatch(/\.mp3$/);
      expect(item.title.length).toBeGreaterThan(0);
      expect(item.style).toContain('happy');
      expect(item.lyric).toMatch(/\[(Verse|Chorus)/);
      expect(item.prompt).toBe(prompt);
    }
  });

  it('names the field of bad input', async () => {
    const unknown = await server.post(
      '/tune/audios',
      { action: 'extend', audio_id: 'no-such-audio', continue_at: 3 },
      token,
    );
    expectError(unknown, 400, 'bad_request');
    expect((unknown.body.error as { message: string }).message).toBe(
      'audio_id: names no audio of this token',
    );
    const notAudio = await server.post(
      '/tune/audios',
      {
        action: 'upload_extend',
        audio_url: `data:audio/wav;base64,${Buffer.from('not audio at all').toString('base64')}`,
      },
      token,
    );
    expectError(notAudio, 400, 'bad_request');
    expect((notAudio.body.error as { message: string }).message).toMatch(
      /^audio_url: is not audio ffmpeg can read \(Invalid data found when processing input\)$/,
    );
    // The temporary file ffmpeg was given is not named to the client.
    expect(notAudio.text).not.toMatch(/switchyard-media|\/tmp\//);
    for (const action of ['upload_cover', 'upload_extend']) {
      const blip = await server.post(
        '/tune/audios',
        { action, audio_url: dataUrl(uploadedSong(0.05, 100), 'audio/wav') },
        token,
      );
      expectError(blip, 400, 'bad_request');
      expect((blip.body.error as { message: string }).message).toBe(
        'audio_url: must hold at least 1 s of audio (it holds 0.050 s)',
      );
    }
  });
});
