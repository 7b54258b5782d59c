/**
 * A server on a machine without Festival: a song with English words answers 503 naming the
 * Debian packages to install. The compiled server runs as a child process whose PATH holds
 * ffmpeg, ffprobe and fluidsynth but not festival.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serverWithOnly, type LimitedServer } from '../support/server-without-tools.js';
import { SHORT_LYRIC } from './music.js';

let server: LimitedServer;

beforeAll(async () => {
  server = await serverWithOnly(['ffmpeg', 'ffprobe', 'fluidsynth']);
}, 60_000);
afterAll(() => server?.close());

it('answers a song with English words with a 503 naming the Festival packages', async () => {
  const music = await server.post('/tune/audios', {
    action: 'generate',
    custom: true,
    lyric: SHORT_LYRIC,
    style: 'piano',
    title: 'Quiet',
  });
  const text = await music.text();
  expect(music.status, text).toBe(503);
  expect(text).toMatch(
    /Festival is not installed \(Debian packages festival festvox-kallpc16k festlex-cmu festlex-poslex\)/,
  );
}, 60_000);
