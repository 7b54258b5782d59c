/**
 * Video families routed to upstream channels over HTTP: a dance request to a fake ModelArk
 * (Seedance) and a maxi request to a fake MiniMax, each polled to completion, the vendor's video
 * fetched into this service's store, and a vendor failure answered as an upstream error.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/expect.js';
import { download, probe } from '../support/media-probe.js';
import { startServer, type TestServer } from '../support/server.js';
import { tinyMp4 } from '../video-channels/fakes/mp4.js';
import { startFakeMiniMax, type FakeMiniMax } from '../video-channels/fakes/minimax.js';
import { startFakeSeedance, type FakeSeedance } from '../video-channels/fakes/seedance.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let ark: FakeSeedance;
let minimax: FakeMiniMax;
let server: TestServer;
let token: string;

beforeAll(async () => {
  const mp4 = await tinyMp4();
  ark = await startFakeSeedance(mp4, 'ark-key');
  minimax = await startFakeMiniMax(mp4, 'mm-key');
  // Each task finishes at its first poll.
  ark.book.pace(0, 0);
  minimax.book.pace(0, 0);
  server = await startServer({
    channels: [
      {
        name: 'ark',
        capability: 'dance',
        type: 'seedance',
        base_url: ark.baseUrl,
        api_key: 'ark-key',
        model_map: { 'dance-1-0-lite-t2v-250428': 'seedance-1-0-lite-t2v-250428' },
      },
      { name: 'hailuo', capability: 'maxi', type: 'minimax', base_url: minimax.baseUrl, api_key: 'mm-key' },
    ],
    // The fakes serve their videos on loopback.
    'outbound.allow_private': true,
    'routing.retries': 0,
  });
  token = await server.token();
});
afterAll(async () => {
  await server.close();
  await ark.close();
  await minimax.close();
});

describe('video channels', () => {
  it('routes dance to Seedance and keeps the video in this service', async () => {
    const answer = await server.post(
      '/dance/videos',
      { model: 'dance-1-0-lite-t2v-250428', content: [{ type: 'text', text: 'a fox in snow --dur 5' }] },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    const [item] = answer.body.data as { status: string; content: { video_url: string } }[];
    expect(item!.status).toBe('succeeded');
    expect(item!.content.video_url.startsWith(`${server.url}/files/`)).toBe(true);
    expect((await probe(await download(item!.content.video_url))).streams[0]!.codec_name).toBe('h264');
    const created = ark.to('/api/v3/contents/generations/tasks')[0]!;
    expect((created.body as { model: string }).model).toBe('seedance-1-0-lite-t2v-250428');
  });

  it('routes maxi to MiniMax, and reports a failed vendor task as an upstream error', async () => {
    const answer = await server.post(
      '/maxi/videos',
      { model: 'maxi-t2v', action: 'generate', prompt: 'rain on a window' },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    const [item] = answer.body.data as { state: string; video_url: string }[];
    expect(item!.state).toBe('succeeded');
    expect(item!.video_url.startsWith(`${server.url}/files/`)).toBe(true);
    minimax.book.failNextTask('content moderation');
    const failed = await server.post(
      '/maxi/videos',
      { model: 'maxi-t2v', action: 'generate', prompt: 'rain' },
      token,
    );
    expectError(failed, 502, 'upstream_error');
  });
});
