/**
 * The video engine end to end: MP4s it renders are checked with ffprobe and decoded with ffmpeg
 * (both independent of the engine), camera moves are measured on the decoded frames, and images,
 * watermark, audio and reference videos are compared pixel by pixel with what was asked.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Canvas } from '../../src/engines/canvas.js';
import { decodeImage } from '../../src/engines/image-codec.js';
import { frameAt } from '../../src/engines/video/decode.js';
import { decodeFrames, renderVideo, type VideoSpec } from '../../src/engines/video/index.js';
import { estimateMotion, type FrameMotion } from '../../src/engines/video/motion-estimate.js';
import { badgeBox } from '../../src/engines/video/watermark.js';

const W = 320;
const H = 180;
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'video-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let files = 0;
async function saved(bytes: Buffer, extension = 'mp4'): Promise<string> {
  files += 1;
  const path = join(dir, `file${files}.${extension}`);
  await writeFile(path, bytes);
  return path;
}

function tool(name: 'ffmpeg' | 'ffprobe', args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(name, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(err))));
  });
}

interface Stream {
  codec_type: string;
  codec_name: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  r_frame_rate: string;
  nb_frames?: string;
  duration?: string;
}

async function probe(mp4: Buffer): Promise<Stream[]> {
  const path = await saved(mp4);
  const text = await tool('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path]);
  return (JSON.parse(text.toString()) as { streams: Stream[] }).streams;
}

/** Every frame, decoded by ffmpeg to RGBA. */
async function decoded(mp4: Buffer, width = W, height = H): Promise<Canvas[]> {
  const path = await saved(mp4);
  const raw = await tool('ffmpeg', [
    '-v',
    'error',
    '-i',
    path,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    'pipe:1',
  ]);
  const size = width * height * 4;
  const out: Canvas[] = [];
  for (let o = 0; o + size <= raw.length; o += size) {
    out.push({ width, height, data: new Uint8Array(raw.subarray(o, o + size)) });
  }
  return out;
}

/** Top-level MP4 boxes in file order. */
function boxes(mp4: Buffer): string[] {
  const names: string[] = [];
  for (let o = 0; o + 8 <= mp4.length;) {
    const size = mp4.readUInt32BE(o);
    names.push(mp4.toString('latin1', o + 4, o + 8));
    if (size < 8) break;
    o += size;
  }
  return names;
}

/** Mean absolute difference over RGB, 0..255, optionally within a rectangle. */
function mad(a: Canvas, b: Canvas, box = [0, 0, a.width, a.height]): number {
  const [x0, y0, x1, y1] = box as [number, number, number, number];
  let sum = 0;
  for (let y = y0; y < y1; y += 1) {
    for (let x = x0; x < x1; x += 1) {
      const o = (y * a.width + x) * 4;
      for (let c = 0; c < 3; c += 1) sum += Math.abs(a.data[o + c]! - b.data[o + c]!);
    }
  }
  return sum / ((x1 - x0) * (y1 - y0) * 3);
}

function meanColor(frames: readonly Canvas[]): [number, number, number] {
  const sum = [0, 0, 0];
  let n = 0;
  for (const f of frames) {
    for (let o = 0; o < f.data.length; o += 4) {
      for (let c = 0; c < 3; c += 1) sum[c]! += f.data[o + c]!;
      n += 1;
    }
  }
  return [sum[0]! / n, sum[1]! / n, sum[2]! / n];
}

/** Mean of max − min over RGB per pixel: 0 for greys. */
function chroma(c: Canvas): number {
  let sum = 0;
  for (let o = 0; o < c.data.length; o += 4) {
    const [r, g, b] = [c.data[o]!, c.data[o + 1]!, c.data[o + 2]!];
    sum += Math.max(r, g, b) - Math.min(r, g, b);
  }
  return sum / (c.data.length / 4);
}

function luma(c: Canvas): Float64Array {
  const out = new Float64Array(c.width * c.height);
  for (let i = 0; i < out.length; i += 1) {
    out[i] = 0.299 * c.data[4 * i]! + 0.587 * c.data[4 * i + 1]! + 0.114 * c.data[4 * i + 2]!;
  }
  return out;
}

function correlation(a: Float64Array, b: Float64Array): number {
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < a.length; i += 1) {
    ma += a[i]! / a.length;
    mb += b[i]! / b.length;
  }
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i += 1) {
    ab += (a[i]! - ma) * (b[i]! - mb);
    aa += (a[i]! - ma) ** 2;
    bb += (b[i]! - mb) ** 2;
  }
  return ab / Math.sqrt(aa * bb);
}

/** A canvas painted by f(x, y) -> RGB. */
function painted(
  width: number,
  height: number,
  f: (x: number, y: number) => [number, number, number],
): Canvas {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const [r, g, b] = f(x, y);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

const spec = (more: Partial<VideoSpec> = {}): VideoSpec => ({
  seed: 11,
  prompt: 'a city skyline at dusk',
  cfgScale: 1,
  width: W,
  height: H,
  fps: 24,
  frames: 36,
  quality: 'std',
  ...more,
});

/** Mean motion between frames i and i + gap over a range of starting frames. */
function motionOver(frames: readonly Canvas[], from: number, to: number, gap = 3): FrameMotion {
  const ms: FrameMotion[] = [];
  for (let i = from; i + gap <= to; i += gap) ms.push(estimateMotion(frames[i]!, frames[i + gap]!));
  const mean = (k: keyof FrameMotion) => ms.reduce((s, m) => s + m[k], 0) / ms.length;
  return {
    dx: mean('dx'),
    dy: mean('dy'),
    scale: mean('scale'),
    rotation: mean('rotation'),
    blocks: mean('blocks'),
  };
}

describe('the MP4 file', () => {
  let first: Buffer;
  let lastFrame: Buffer;

  beforeAll(async () => {
    const video = await renderVideo(spec());
    first = video.mp4;
    lastFrame = video.lastFrame;
    expect(video).toMatchObject({ width: W, height: H, fps: 24, frames: 36, duration: 1.5 });
  });

  it('is H.264 yuv420p at the asked size, rate and frame count, with the index first and no audio', async () => {
    const streams = await probe(first);
    expect(streams).toHaveLength(1);
    const [video] = streams;
    expect(video).toMatchObject({
      codec_type: 'video',
      codec_name: 'h264',
      pix_fmt: 'yuv420p',
      width: W,
      height: H,
    });
    expect(video!.r_frame_rate).toBe('24/1');
    expect(Number(video!.nb_frames)).toBe(36);
    expect(Math.abs(Number(video!.duration) - 1.5)).toBeLessThan(0.05);
    const order = boxes(first);
    expect(order).toContain('moov');
    expect(order.indexOf('moov')).toBeLessThan(order.indexOf('mdat'));
  });

  it('is the same bytes for the same seed and different bytes for another', async () => {
    const again = await renderVideo(spec());
    expect(again.mp4.equals(first)).toBe(true);
    const other = await renderVideo(spec({ seed: 12 }));
    expect(other.mp4.equals(first)).toBe(false);
  });

  it('comes with a PNG that is exactly its last frame as ffmpeg decodes it', async () => {
    const frames = await decoded(first);
    expect(frames).toHaveLength(36);
    const png = decodeImage(lastFrame, 1e6);
    expect([png.width, png.height]).toEqual([W, H]);
    expect(mad(png, frames[35]!)).toBe(0);
    expect(mad(png, frames[0]!)).toBeGreaterThan(0);
    expect(mad(await frameAt(first, 10, W, H), frames[10]!)).toBe(0);
  });

  it('is encoded at a lower CRF in pro quality', async () => {
    const pro = await renderVideo(spec({ quality: 'pro', frames: 12 }));
    // x264 writes its settings into the stream, so the file says how it was encoded.
    expect(pro.mp4.includes('crf=18.0')).toBe(true);
    expect(first.includes('crf=23.0')).toBe(true);
    expect(first.includes('crf=18.0')).toBe(false);
  });

  it('reads back through decodeFrames with its rate, size and duration', async () => {
    const all = await decodeFrames(first, 100);
    expect(all).toMatchObject({ fps: 24, width: W, height: H });
    expect(all.frames).toHaveLength(36);
    expect(Math.abs(all.duration - 1.5)).toBeLessThan(0.05);
    const small = await decodeFrames(first, 5, 160);
    expect(small.frames).toHaveLength(5);
    expect([small.frames[0]!.width, small.frames[0]!.height]).toEqual([160, 90]);
  });
});

describe('camera moves, measured on the decoded frames', () => {
  const measure = async (camera: VideoSpec['camera'], from = 8, to = 28) =>
    motionOver(await decoded((await renderVideo(spec({ camera }))).mp4), from, to);

  it('pans right: the picture slides left, and nothing else', async () => {
    const m = await measure({ kind: 'simple', config: { pan: 1 } });
    console.log('pan right', m);
    // 0.08 of the frame a second on average, twice that at mid-move: about 0.015 per 3 frames here.
    expect(m.dx).toBeLessThan(-0.01);
    expect(m.dx).toBeGreaterThan(-0.022);
    expect(Math.abs(m.dy)).toBeLessThan(0.001);
    expect(Math.abs(m.scale - 1)).toBeLessThan(0.002);
  });

  it('trucks left: the picture slides right', async () => {
    const m = await measure({ kind: 'simple', config: { horizontal: -1 } });
    expect(m.dx).toBeGreaterThan(0.005);
    expect(m.dx).toBeLessThan(0.022);
  });

  it('moves up: the picture slides down', async () => {
    const m = await measure({ kind: 'simple', config: { vertical: 1 } });
    expect(m.dy).toBeGreaterThan(0.003);
    expect(Math.abs(m.dx)).toBeLessThan(0.001);
  });

  it('zooms in and out from the centre', async () => {
    const zoomIn = await measure({ kind: 'simple', config: { zoom: 1 } });
    console.log('zoom in', zoomIn);
    expect(zoomIn.scale).toBeGreaterThan(1.012);
    expect(zoomIn.scale).toBeLessThan(1.028);
    expect(Math.abs(zoomIn.dx)).toBeLessThan(0.002);
    const zoomOut = await measure({ kind: 'simple', config: { zoom: -1 } });
    expect(zoomOut.scale).toBeLessThan(0.996);
  });

  it('rolls: clockwise camera, counter-clockwise picture', async () => {
    const m = await measure({ kind: 'simple', config: { roll: 1 } });
    console.log('roll', m);
    expect(m.rotation).toBeLessThan(-0.012);
    expect(m.rotation).toBeGreaterThan(-0.028);
    expect(Math.abs(m.scale - 1)).toBeLessThan(0.003);
  });

  it('stays still when fixed', async () => {
    const m = await measure({ kind: 'fixed' });
    console.log('fixed', m);
    // The painted frames are identical; what is measured is the encoder's noise, up to 0.0017
    // over seeds 11 to 16, under two thirds of the smallest move above (0.003).
    expect(Math.abs(m.dx)).toBeLessThan(0.002);
    expect(Math.abs(m.dy)).toBeLessThan(0.002);
    expect(Math.abs(m.scale - 1)).toBeLessThan(0.002);
    expect(Math.abs(m.rotation)).toBeLessThan(0.002);
  });

  it('follows director commands in turn: pan left, then zoom in', async () => {
    const video = await renderVideo(
      spec({ frames: 48, camera: { kind: 'sequence', commands: ['Pan left', 'Zoom in'] } }),
    );
    const frames = await decoded(video.mp4);
    const pan = motionOver(frames, 6, 18);
    const zoom = motionOver(frames, 30, 42);
    console.log('sequence', pan, zoom);
    expect(pan.dx).toBeGreaterThan(0.004);
    expect(Math.abs(pan.scale - 1)).toBeLessThan(0.002);
    expect(zoom.scale).toBeGreaterThan(1.006);
    expect(Math.abs(zoom.dx)).toBeLessThan(0.001);
  });
});

describe('images', () => {
  // A picture with edges and colour everywhere, of the frame's own shape, and another at twice the size.
  const start = painted(W, H, (x, y) => [
    x * 0.8,
    128 + 100 * Math.sin(y / 9),
    100 + 90 * Math.cos((x + y) / 14),
  ]);
  const end = painted(2 * W, 2 * H, (x, y) => [200 - y / 3, 120 + 80 * Math.sin(x / 25), 40 + x / 4]);
  /** The end image as the frame shows it: halved by 2 × 2 averages. */
  const endInFrame = painted(W, H, (x, y) => {
    const at = (dx: number, dy: number, c: number) => end.data[((2 * y + dy) * 2 * W + 2 * x + dx) * 4 + c]!;
    return [0, 1, 2].map((c) => (at(0, 0, c) + at(1, 0, c) + at(0, 1, c) + at(1, 1, c)) / 4) as [
      number,
      number,
      number,
    ];
  });

  it('starts on the start image and ends on the end image', async () => {
    const video = await renderVideo(
      spec({ startImage: start, endImage: end, camera: { kind: 'simple', config: { horizontal: 0.6 } } }),
    );
    const frames = await decoded(video.mp4);
    const [head, middle, tail] = [
      mad(frames[0]!, start),
      mad(frames[18]!, start),
      mad(frames[35]!, endInFrame),
    ];
    console.log('image to video: first vs start', head, 'middle vs start', middle, 'last vs end', tail);
    expect(head).toBeLessThan(4);
    expect(tail).toBeLessThan(4);
    expect(mad(frames[0]!, endInFrame)).toBeGreaterThan(30);
    expect(middle).toBeGreaterThan(head + 5);
  });

  it('continues from the last frame of an earlier video', async () => {
    const earlier = await renderVideo(spec({ prompt: 'forest', seed: 5 }));
    const last = decodeImage(earlier.lastFrame, 1e6);
    const video = await renderVideo(
      spec({ prompt: 'forest', seed: 6, continueFrom: last, camera: { kind: 'simple', config: { pan: 1 } } }),
    );
    const frames = await decoded(video.mp4);
    const head = mad(frames[0]!, last);
    console.log('continue: first vs earlier last', head);
    expect(head).toBeLessThan(4);
    expect(mad(frames[35]!, last)).toBeGreaterThan(head + 5);
  });

  it('places elements in the scene', async () => {
    const element = painted(60, 60, () => [255, 0, 255]);
    const frames = async (elements: Canvas[]) =>
      decoded((await renderVideo(spec({ elements, frames: 2, camera: { kind: 'fixed' } }))).mp4);
    const [withElement] = await frames([element]);
    const [without] = await frames([]);
    const magenta = (c: Canvas) => {
      let n = 0;
      for (let o = 0; o < c.data.length; o += 4)
        if (c.data[o]! > 200 && c.data[o + 1]! < 80 && c.data[o + 2]! > 200) n += 1;
      return n;
    };
    expect(magenta(without!)).toBe(0);
    expect(magenta(withElement!)).toBeGreaterThan(0.3 * (0.38 * H) ** 2);
  });
});

describe('watermark and audio', () => {
  it('draws the badge in the bottom-right corner only when asked', async () => {
    const render = async (watermark: boolean) =>
      (await decoded((await renderVideo(spec({ watermark, frames: 2 }))).mp4))[1]!;
    const [marked, plain] = [await render(true), await render(false)];
    const [x0, y0, x1, y1] = badgeBox(W, H);
    const inside = mad(marked, plain, [x0, y0, x1, y1]);
    const elsewhere = mad(marked, plain, [0, 0, W / 2, H / 2]);
    console.log('watermark: corner difference', inside, 'elsewhere', elsewhere);
    expect(x0).toBeGreaterThan(W * 0.7);
    expect(y0).toBeGreaterThan(H * 0.7);
    expect(inside).toBeGreaterThan(40);
    expect(elsewhere).toBeLessThan(1);
  });

  it('muxes AAC audio for the length of the video, only when given', async () => {
    const wav = await tool('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=3',
      '-f',
      'wav',
      'pipe:1',
    ]);
    const video = await renderVideo(spec({ audio: wav }));
    const streams = await probe(video.mp4);
    const audio = streams.find((s) => s.codec_type === 'audio');
    expect(audio?.codec_name).toBe('aac');
    expect(Math.abs(Number(audio?.duration) - 1.5)).toBeLessThan(0.1);
    expect(streams.filter((s) => s.codec_type === 'video')).toHaveLength(1);
    const again = await renderVideo(spec({ audio: wav }));
    expect(again.mp4.equals(video.mp4)).toBe(true);
  });
});

describe('reference videos', () => {
  // Grey discs drifting right over stripes: shapes to keep (base) and a motion to borrow (feature).
  const referenceFrames = Array.from({ length: 45 }, (_, i) =>
    painted(W, H, (x, y) => {
      const inDisc =
        (x - 60 - 4 * i) ** 2 + (y - 90) ** 2 < 1600 || (x - 200 - 4 * i) ** 2 + (y - 50) ** 2 < 900;
      const v = inDisc ? 230 : 40 + ((x - 4 * i) % 64 < 32 ? 60 : 0) + y / 4;
      return [v, v, v];
    }),
  );

  it('restyles a base video: same shapes, new colours', async () => {
    const video = await renderVideo(
      spec({
        prompt: 'pink and teal neon',
        reference: { frames: referenceFrames, fps: 30, use: 'base' },
        frames: 24,
      }),
    );
    const frames = await decoded(video.mp4);
    const same = [0, 12, 23].map((i) =>
      correlation(luma(frames[i]!), luma(referenceFrames[Math.floor((i * 30) / 24)]!)),
    );
    const shifted = correlation(luma(frames[0]!), luma(referenceFrames[40]!));
    console.log('base: correlation with the reference', same, 'with a later frame', shifted);
    for (const c of same) expect(c).toBeGreaterThan(0.9);
    expect(shifted).toBeLessThan(same[0]! - 0.2);
    // The reference is grey; the restyled frames carry the palette's hues.
    expect(chroma(referenceFrames[0]!)).toBe(0);
    expect(chroma(frames[12]!)).toBeGreaterThan(20);
  });

  it('borrows colours and motion as a feature', async () => {
    const red = referenceFrames.map((f) =>
      painted(W, H, (x, y) => [f.data[(y * W + x) * 4]!, f.data[(y * W + x) * 4]! * 0.2, 20]),
    );
    const target = meanColor(red);
    const distance = (c: number[]) => Math.hypot(c[0]! - target[0], c[1]! - target[1], c[2]! - target[2]);
    const plain = await decoded((await renderVideo(spec({ prompt: 'abstract', seed: 4 }))).mp4);
    const borrowed = await decoded(
      (
        await renderVideo(
          spec({ prompt: 'abstract', seed: 4, reference: { frames: red, fps: 30, use: 'feature' } }),
        )
      ).mp4,
    );
    const [before, after] = [distance(meanColor(plain)), distance(meanColor(borrowed))];
    const motion = motionOver(borrowed, 8, 28);
    console.log('feature: colour distance', before, '->', after, 'motion', motion);
    expect(after).toBeLessThan(before * 0.7);
    // The reference's content moves right 4 of 320 pixels a frame at 30 fps: 0.047 of the frame per 3 frames at 24.
    expect(motion.dx).toBeGreaterThan(0.02);
  });
});
