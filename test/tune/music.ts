/**
 * Shared steps of the music tests: a server, requests to /tune/audios, and a small song.
 */
import { expect } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { download, durationOf, probe, wavOf } from '../support/media-probe.js';

export type Item = {
  id: string;
  state: string;
  title: string;
  style: string;
  lyric: string;
  prompt: string;
  model: string;
  duration: number;
  audio_url: string;
  image_url: string;
  video_url: string;
  created_at: string;
};

/**
 * A sung intro and a one-line chorus: seven bars (no intro of its own is added, only the ending),
 * about 17 s at 110 bpm with the whole band in the chorus, where a verse and a chorus of two lines
 * each took 34 s. Render time grows with a song's length.
 */
export const SHORT_LYRIC = '[Intro]\nWalking down the river road\n[Chorus]\nHold the light and let it glow';

/**
 * A server for the music tests, with one engine thread. Each thread loads the engine anew (about
 * 0.6 CPU-s from source) whenever it has been idle for 5 s, which the checks between two requests
 * often take; a song costs the same CPU on one thread as on two.
 */
export function musicServer(overrides: Record<string, unknown> = {}): Promise<TestServer> {
  return startServer({ 'music.workers': 1, ...overrides });
}

/**
 * A /tune/audios request that must succeed. Every item's audio is checked with ffprobe: MP3 for
 * songs (`.mp3`), float WAV for stems and samples (`.wav`), lasting the item's `duration`.
 */
export async function tune(
  server: TestServer,
  token: string,
  body: Record<string, unknown>,
): Promise<Item[]> {
  const answer = await server.post('/tune/audios', body, token);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.success).toBe(true);
  const data = answer.body.data as Item[];
  for (const item of data) {
    expect(item.state).toBe('succeeded');
    const probed = await probe(await download(item.audio_url));
    expect(item.audio_url).toMatch(/\.(mp3|wav)$/);
    expect(probed.streams[0]!.codec_name).toBe(item.audio_url.endsWith('.wav') ? 'pcm_f32le' : 'mp3');
    expect(Math.abs(durationOf(probed) - item.duration), item.title).toBeLessThan(0.1);
  }
  return data;
}

/** A song made of a kick on each beat, a chord pad to the left and a sung-like tone in the centre. */
export function uploadedSong(seconds: number, bpm: number): Buffer {
  const rate = 44100;
  const frames = Math.round(seconds * rate);
  const out = new Float32Array(frames * 2);
  const beat = 60 / bpm;
  const chord = [261.63, 329.63, 392.0];
  const tune = [392, 440, 392, 330, 294, 330, 392, 392];
  for (let i = 0; i < frames; i += 1) {
    const t = i / rate;
    const inBeat = t % beat;
    const kick =
      inBeat < 0.15
        ? Math.sin(2 * Math.PI * (50 + 80 * Math.exp(-inBeat * 30)) * inBeat) * Math.exp(-inBeat * 20) * 0.5
        : 0;
    const pad = chord.reduce((sum, f) => sum + Math.sin(2 * Math.PI * f * t), 0) * 0.06;
    const note = tune[Math.floor(t / beat) % tune.length]!;
    const voice = Math.sin(2 * Math.PI * note * t + 0.3 * Math.sin(2 * Math.PI * 5.5 * t)) * 0.18;
    out[2 * i] = kick + pad * 0.9 + voice;
    out[2 * i + 1] = kick + pad * 0.3 + voice;
  }
  return wavOf(out, rate);
}

export const dataUrl = (bytes: Buffer, type: string) => `data:${type};base64,${bytes.toString('base64')}`;

/** A server, a token, and a first song made with `body` (custom mode with the short lyric). */
export async function serverWithSong(
  body: Record<string, unknown>,
): Promise<{ server: TestServer; token: string; song: Item }> {
  const server = await musicServer();
  const token = await server.token();
  const [song] = await tune(server, token, { action: 'generate', custom: true, lyric: SHORT_LYRIC, ...body });
  return { server, token, song: song! };
}
