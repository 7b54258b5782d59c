/**
 * Lyrics for lyric_prompt through a chat channel (a fake OpenAI-compatible upstream on
 * loopback), and the local lyric writer when that channel fails.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-openai.js';
import type { TestServer } from '../support/server.js';
import { musicServer, tune } from './music.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

let upstream: FakeUpstream;
let server: TestServer;
let token: string;

beforeAll(async () => {
  upstream = await startFakeUpstream('lyrics');
  server = await musicServer({
    channels: [
      {
        name: 'lyrics',
        capability: 'chat',
        type: 'openai-compatible',
        base_url: upstream.baseUrl,
        models: ['writer-1'],
      },
    ],
    'routing.retries': 0,
  });
  token = await server.token();
});
afterAll(async () => {
  await server.close();
  await upstream.close();
});

/**
 * Short songs at a quick tempo on a piano alone: the lyrics are what is checked, and shorter
 * songs with fewer parts (each rendered, encoded and kept on its own) render sooner.
 */
const STYLE = { style: 'piano, 200 bpm', style_negative: 'drums, bass, pad', style_influence: 1 };
const WRITTEN = '[Intro]\nRain on the window pane\nSoft and slow again\n[Chorus]\nLet it fall';

describe('lyrics for lyric_prompt', () => {
  it('are written by the chat model of the configured channel', async () => {
    upstream.answerNext(WRITTEN);
    const items = await tune(server, token, {
      custom: true,
      lyric_prompt: { prompt: 'rain at night' },
      ...STYLE,
    });
    for (const item of items) expect(item.lyric).toBe(WRITTEN);
    const asked = upstream.received.at(-1)!.body;
    expect(asked.model).toBe('writer-1');
    expect(asked.messages.at(-1)).toEqual({ role: 'user', content: 'rain at night' });
  });

  it('come from the local writer when the chat model fails', async () => {
    upstream.failNext(500);
    // "a short song": the local writer's verse and chorus, not its whole form.
    const items = await tune(server, token, {
      custom: true,
      lyric_prompt: 'a short song about rain at night',
      ...STYLE,
    });
    expect(items[0]!.lyric).toMatch(/^\[Verse\]/);
    expect(items[0]!.lyric).not.toBe(WRITTEN);
    expect(items[0]!.lyric.split('\n').length).toBeGreaterThanOrEqual(8);
  });
});
