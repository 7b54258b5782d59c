/**
 * A server on a machine without FluidSynth: music requests answer 503 naming the Debian package
 * to install, and the other families still work. The compiled server runs as a child process
 * whose PATH holds ffmpeg and ffprobe but not fluidsynth.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serverWithOnly, type LimitedServer } from '../support/server-without-tools.js';

let server: LimitedServer;

beforeAll(async () => {
  server = await serverWithOnly(['ffmpeg', 'ffprobe']);
}, 60_000);
afterAll(() => server?.close());

it('answers music with a 503 naming fluidsynth, and serves the rest', async () => {
  const music = await server.post('/tune/audios', {
    action: 'generate',
    custom: true,
    instrumental: true,
    style: 'piano, 160 bpm',
    title: 'Quiet',
  });
  const text = await music.text();
  expect(music.status, text).toBe(503);
  expect(text).toMatch(/fluidsynth is not installed \(Debian package fluidsynth\)/);
  const search = await server.post('/serp/web', { query: 'anything' });
  expect(search.status).toBe(200);
}, 60_000);
