/**
 * The three video families over HTTP on the local engine, checked with ffprobe: sizes, rates,
 * lengths and codecs; items of each family's shape; extend from the last frame; a reference
 * video restyled, and one outside the limits refused; dance flags,
 * seeds, the last frame, sound only where asked; bad input named by field.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError } from '../support/expect.js';
import { download, probe } from '../support/media-probe.js';
import { startServer, type TestServer } from '../support/server.js';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 180_000 });

const run = promisify(execFile);

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer();
  token = await server.token();
});
afterAll(() => server.close());

type Item = Record<string, unknown> & { id: string };

async function videos(path: string, body: Record<string, unknown>): Promise<Item[]> {
  const answer = await server.post(path, body, token);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.body.success).toBe(true);
  return answer.body.data as Item[];
}

function pngDataUrl(
  width: number,
  height: number,
  paint: (x: number, y: number) => [number, number, number],
): string {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y += 1)
    for (let x = 0; x < width; x += 1) {
      const o = (y * width + x) * 4;
      [png.data[o], png.data[o + 1], png.data[o + 2]] = paint(x, y);
      png.data[o + 3] = 255;
    }
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}

/** A 720×720 test pattern (the smallest a reference may be) with a tone, `seconds` long, as a data: URL. */
async function referenceVideo(seconds: number): Promise<string> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc=size=720x720:rate=24:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      'frag_keyframe+empty_moov',
      '-f',
      'mp4',
      'pipe:1',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return `data:video/mp4;base64,${stdout.toString('base64')}`;
}

async function videoStream(url: string) {
  const probed = await probe(await download(url));
  return {
    probed,
    video: probed.streams.find((s) => s.codec_type === 'video')!,
    audio: probed.streams.find((s) => s.codec_type === 'audio'),
  };
}

describe('/clip/videos on the local engine', () => {
  it('renders text to a 5 s 720p H.264 video with a cover', async () => {
    const [item] = await videos('/clip/videos', {
      action: 'text2video',
      prompt: 'a calm ocean at sunset with a zorblax and a pelican',
      aspect_ratio: '9:16',
      element_list: [{ element_id: 'lighthouse' }],
    });
    expect(item).toMatchObject({
      state: 'succeeded',
      model: 'clip-v1',
      prompt: 'a calm ocean at sunset with a zorblax and a pelican',
      // A noun nothing in the scene stands for is said, not dropped.
      unknown_nouns: ['zorblax'],
      stand_ins: [{ noun: 'pelican', drawn_as: 'bird' }],
      width: 720,
      height: 1280,
      fps: 24,
      duration: 5,
    });
    const { probed, video, audio } = await videoStream(String(item!.video_url));
    expect(video).toMatchObject({ codec_name: 'h264', width: 720, height: 1280, r_frame_rate: '24/1' });
    expect(Number(probed.format.duration)).toBeCloseTo(5, 1);
    expect(audio).toBeUndefined();
    const cover = PNG.sync.read(await download(String(item!.image_url)));
    expect([cover.width, cover.height]).toEqual([720, 1280]);
  });

  it('moves over a start image to an end image, and extends the result', async () => {
    // Square frames, 720×720: fewer pixels to render over the 15 s of video this test makes.
    const start = pngDataUrl(180, 180, (x) => [x % 64 < 32 ? 240 : 20, 80, 40]);
    const end = pngDataUrl(180, 180, (_x, y) => [20, y % 40 < 20 ? 220 : 30, 200]);
    const [item] = await videos('/clip/videos', {
      action: 'image2video',
      start_image_url: start,
      end_image_url: end,
      duration: 5,
      aspect_ratio: '1:1',
      camera_control: { type: 'simple', config: { zoom: 0.6 } },
      mode: 'pro',
    });
    expect(item).toMatchObject({ width: 720, height: 720, duration: 5 });
    const [longer] = await videos('/clip/videos', {
      action: 'extend',
      video_id: item!.id,
      prompt: 'the sea goes on',
    });
    expect(longer!.id).not.toBe(item!.id);
    // The longer video: the first five seconds, then five more.
    expect(longer!.duration).toBe(10);
    const { probed, video } = await videoStream(String(longer!.video_url));
    expect([video.width, video.height]).toEqual([720, 720]);
    expect(Number(probed.format.duration)).toBeCloseTo(10, 1);
    expect(video.nb_frames).toBe('240');
  });

  it('restyles a base reference video, keeping its sound when asked', async () => {
    const reference = await referenceVideo(3);
    const [item] = await videos('/clip/videos', {
      action: 'text2video',
      prompt: 'the same, in autumn colours',
      aspect_ratio: '1:1',
      video_list: [{ video_url: reference, refer_type: 'base', keep_original_sound: 'yes' }],
    });
    const { video, audio } = await videoStream(String(item!.video_url));
    expect(video.codec_name).toBe('h264');
    expect(audio?.codec_name).toBe('aac');
    const short = await server.post(
      '/clip/videos',
      { action: 'text2video', prompt: 'x', video_list: [{ video_url: await referenceVideo(1) }] },
      token,
    );
    expectError(short, 400, 'bad_request');
    expect((short.body.error as { message: string }).message).toMatch(
      /^video_list\[0\]\.video_url: must last 3 to 10 s/,
    );
  });

  it('names the field of what it cannot use', async () => {
    const unknown = await server.post('/clip/videos', { action: 'extend', video_id: 'nope' }, token);
    expectError(unknown, 400, 'bad_request');
    expect((unknown.body.error as { message: string }).message).toBe(
      'video_id: names no video of this token',
    );
    const notImage = await server.post(
      '/clip/videos',
      { action: 'image2video', start_image_url: 'data:image/png;base64,AAAA' },
      token,
    );
    expectError(notImage, 400, 'bad_request');
    expect((notImage.body.error as { message: string }).message).toMatch(/^start_image_url: /);
  });
});

describe('/dance/videos on the local engine', () => {
  const lite = 'dance-1-0-lite-t2v-250428';

  it('reads inline flags, keeps its seed, and returns the last frame', async () => {
    const body = {
      model: lite,
      content: [{ type: 'text', text: 'neon city at night --rs 480p --rt 1:1 --dur 2 --seed 7 --wm true' }],
      return_last_frame: true,
    };
    const [item] = await videos('/dance/videos', body);
    expect(item).toMatchObject({
      status: 'succeeded',
      model: lite,
      seed: 7,
      resolution: '480p',
      ratio: '1:1',
      duration: 2,
      framespersecond: 24,
      service_tier: 'default',
    });
    const content = item!.content as { video_url: string; last_frame_url: string };
    const { video, audio } = await videoStream(content.video_url);
    expect(video).toMatchObject({ width: 480, height: 480, nb_frames: '48' });
    expect(audio).toBeUndefined();
    const last = PNG.sync.read(await download(content.last_frame_url));
    expect([last.width, last.height]).toEqual([480, 480]);
    expect((item!.usage as { total_tokens: number }).total_tokens).toBe(
      Math.round((480 * 480 * 24 * 2) / 1024),
    );
    const [again] = await videos('/dance/videos', body);
    expect(
      (await download((again!.content as { video_url: string }).video_url)).equals(
        await download(content.video_url),
      ),
    ).toBe(true);
  });

  it('counts frames at 24 fps and adds sound only on the model that has it', async () => {
    const [framed] = await videos('/dance/videos', {
      model: lite,
      content: [{ type: 'text', text: 'forest' }],
      frames: 29,
      // No resolution: a lite model's is 480p. Square frames, 480×480.
      ratio: '1:1',
    });
    const framedVideo = await videoStream((framed!.content as { video_url: string }).video_url);
    expect(framed!.resolution).toBe('480p');
    expect(framedVideo.video).toMatchObject({ width: 480, height: 480, nb_frames: '29' });
    expect(framed!.duration).toBeCloseTo(29 / 24, 2);
    const [sounding] = await videos('/dance/videos', {
      model: 'dance-1-5-pro-251215',
      content: [{ type: 'text', text: 'drums by the fire --dur 2 --rs 480p --rt 1:1' }],
      generate_audio: true,
    });
    expect(
      (await videoStream((sounding!.content as { video_url: string }).video_url)).audio?.codec_name,
    ).toBe('aac');
  });
});

describe('/maxi/videos on the local engine', () => {
  it('streams six seconds at 720p, and the director model follows bracketed commands', async () => {
    // One render for both: maxi-t2v is streamed to its end in test/tasks/progress.test.ts, and
    // every maxi model renders at the one size.
    const image = pngDataUrl(256, 144, (x, y) => [x, y, 128]);
    const response = await server.send(
      '/maxi/videos',
      {
        model: 'maxi-i2v-director',
        action: 'generate',
        prompt: '[Pan left] a valley [Zoom in]',
        first_image_url: image,
      },
      token,
      { accept: 'application/x-ndjson' },
    );
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    // Streamed as ndjson snapshots, the last one terminal.
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { data: Item[] });
    expect(['pending', 'running']).toContain(lines[0]!.data[0]!.state);
    const directed = lines[lines.length - 1]!.data[0];
    expect(directed).toMatchObject({ state: 'succeeded', width: 1280, height: 720, fps: 24, duration: 6 });
    expect(directed!.prompt).toBe('[Pan left] a valley [Zoom in]');
    const { probed, video } = await videoStream(String(directed!.video_url));
    expect(video).toMatchObject({ codec_name: 'h264', width: 1280, height: 720, r_frame_rate: '24/1' });
    expect(Number(probed.format.duration)).toBeCloseTo(6, 1);
  });
});
