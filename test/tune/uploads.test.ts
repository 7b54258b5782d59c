/**
 * The upload actions of /tune/audios on a WAV sent as a data: URL: upload_extend (then concat
 * joins the upload and the extension), upload_cover, and stems of uploaded music, which has none
 * of its own until separation takes it apart.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestServer } from '../support/server.js';
import { decode, download, residualDb, sum } from '../support/media-probe.js';
import { dataUrl, musicServer, tune, uploadedSong } from './music.js';

// Each request renders, encodes and stores whole songs: seconds of work, more on a loaded machine.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await musicServer();
  token = await server.token();
});
afterAll(() => server.close());

describe('/tune/audios on uploaded music', () => {
  it('extends and covers uploaded music', async () => {
    // Short music: each step below renders or takes apart the whole of what it is given.
    const upload = dataUrl(uploadedSong(4, 100), 'audio/wav');
    const [extension] = await tune(server, token, {
      action: 'upload_extend',
      audio_url: upload,
      continue_at: 3,
      // A synth lead alone: every part of a band is rendered, encoded and kept on its own.
      style: 'electronic',
      style_negative: 'drums, bass, pad, bells',
    });
    // Without words, an extension is an instrumental of 30 s.
    expect(extension!.lyric).toBe('');
    expect(extension!.duration).toBeCloseTo(30, 1);
    const [whole] = await tune(server, token, { action: 'concat', audio_id: extension!.id });
    expect(whole!.duration).toBeCloseTo(3 + extension!.duration, 1);
    const covers = await tune(server, token, {
      action: 'upload_cover',
      audio_url: upload,
      style: 'piano ballad',
    });
    for (const item of covers) expect(item.duration).toBeCloseTo(4, 0);
    // Uploaded audio has no stems of its own: separation takes it apart, still summing to it.
    const stems = await tune(server, token, { action: 'all_stems', audio_id: whole!.id });
    const parts = await Promise.all(stems.map(async (stem) => decode(await download(stem.audio_url))));
    expect(residualDb(await decode(await download(whole!.audio_url)), sum(parts))).toBeLessThan(-40);
  });
});
