/**
 * A text-to-video clip over HTTP on the local engine shows what its prompt names: "a lighthouse
 * at dusk" is measured on a frame that ffmpeg decodes from the MP4 the server made, for a dusk
 * sky, one tall narrow tower lit at the top, and no flowers. The seed comes from the task id, so
 * every run measures another placement.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { download, probe } from '../support/media-probe.js';
import {
  brightestRow,
  columnsOf,
  flowerSpecks,
  horizonOf,
  luma,
  meanColor,
  standouts,
  videoFrame,
  type Column,
} from '../support/scene-measure.js';
import { startServer, type TestServer } from '../support/server.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.token();
});
afterAll(() => server.close());

describe('/clip/videos text2video draws the prompt', () => {
  it('renders a lighthouse at dusk: a warm evening sky and a lit tower, nothing else', async () => {
    const answer = await server.post(
      '/clip/videos',
      { action: 'text2video', prompt: 'a lighthouse at dusk', aspect_ratio: '1:1', duration: 5 },
      token,
    );
    expect(answer.status, answer.text).toBe(200);
    const [item] = answer.body.data as { video_url: string }[];
    const mp4 = await download(item!.video_url);
    const probed = await probe(mp4);
    const video = probed.streams.find((s) => s.codec_type === 'video')!;
    expect(video).toMatchObject({ codec_name: 'h264', width: 720, height: 720 });
    expect(Number(probed.format.duration)).toBeCloseTo(5, 1);

    const f = await videoFrame(mp4, 0, 720, 720);
    const horizon = horizonOf(f);
    expect(horizon).toBeGreaterThan(0.35 * 720);
    expect(horizon).toBeLessThan(0.65 * 720);
    // Dusk: warm at the horizon, deepening to darker and bluer overhead.
    const top = meanColor(f, 0, 60);
    const low = meanColor(f, horizon - 60, horizon - 5);
    console.log('dusk sky', { horizon, top, low });
    expect(low[0] - low[2]).toBeGreaterThan(80);
    expect(luma(top)).toBeLessThan(luma(low) - 20);
    expect(top[2] - top[0]).toBeGreaterThan(low[2] - low[0] + 40);
    // The one thing against the sky: a tall narrow tower whose brightest part is at its top.
    const found = columnsOf(standouts(f, 0, horizon - 3, 60), 0.05 * 720);
    expect(found).toHaveLength(1);
    const [tower] = found as [Column];
    console.log('tower', tower);
    const [tall, wide] = [tower.bottom - tower.top + 1, tower.right - tower.left + 1];
    expect(tall / wide).toBeGreaterThan(3);
    expect(tall).toBeGreaterThan(0.15 * 720);
    expect(brightestRow(f, tower)).toBeLessThan(tower.top + 0.3 * tall);
    expect(flowerSpecks(f, horizon)).toHaveLength(0);
  });
});
