/**
 * Each family's request read as one render: prompt, size, length, camera, frames to start and
 * end on, references. Images are fetched here and decoded on the engine's worker threads; what
 * cannot be read is a 400 naming its field.
 */
import { randomInt } from 'node:crypto';
import { defaultResolution, parseDanceFlags, type DanceFlags } from '../../contract/dance-flags.js';
import { UnreadableImage } from '../../engines/qr/index.js';
import { hsl } from '../../engines/paint/index.js';
import { hashOf } from '../../engines/random.js';
import type { Canvas } from '../../engines/canvas.js';
import type { CameraMove, VideoPool, VideoSpec } from '../../engines/video/index.js';
import { badRequest } from '../../errors.js';
import type { Job } from '../index.js';
import type { VideoFamily } from './channels/types.js';
import { FPS, frameSize } from './frames.js';

const IMAGE_BYTES = 20 * 1024 * 1024;
const IMAGE_PIXELS = 40_000_000;

/** A render and what the result item reports of it. */
export interface VideoRequest {
  spec: Omit<VideoSpec, 'seed'> & { seed?: number };
  model: string;
  prompt: string;
  resolution: string;
  ratio: string;
  /** clip extend: the video to continue. */
  continues?: string;
  /** clip video_list: the reference video and how to use it. */
  reference?: { url: string; use: 'base' | 'feature'; keepSound: boolean };
  /** dance generate_audio on the model that has sound. */
  withSound: boolean;
  /** dance: the last frame as its own image. */
  returnLastFrame: boolean;
  flex: boolean;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

export async function imageOf(job: Job, engine: VideoPool, field: string, url: string): Promise<Canvas> {
  const bytes = await job.fetchInput(field, url, IMAGE_BYTES);
  try {
    return await engine.runWith({ move: true }, 'readImage', bytes, IMAGE_PIXELS);
  } catch (error) {
    if (error instanceof UnreadableImage) throw badRequest([{ field, rule: error.message }]);
    throw error;
  }
}

function cameraOfClip(value: unknown): CameraMove | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const camera = value as { type?: string; config?: Record<string, number> };
  if (camera.type === 'simple') return { kind: 'simple', config: camera.config ?? {} };
  return { kind: 'preset', name: camera.type as 'down_back' };
}

async function clipRequest(job: Job, engine: VideoPool): Promise<VideoRequest> {
  const input = job.input;
  const aspect = text(input.aspect_ratio) || '16:9';
  const seconds = typeof input.duration === 'number' ? input.duration : 5;
  const reference = Array.isArray(input.video_list)
    ? (input.video_list[0] as { video_url: string; refer_type?: string; keep_original_sound?: string })
    : undefined;
  const elements = Array.isArray(input.element_list)
    ? (input.element_list as { element_id: string }[]).map((e) => e.element_id)
    : [];
  return {
    model: text(input.model) || 'clip-v1',
    prompt: text(input.prompt),
    resolution: '720p',
    ratio: aspect,
    continues: input.action === 'extend' ? text(input.video_id) : undefined,
    reference: reference && {
      url: reference.video_url,
      use: reference.refer_type === 'feature' ? 'feature' : 'base',
      keepSound: reference.keep_original_sound === 'yes',
    },
    withSound: false,
    returnLastFrame: false,
    flex: false,
    spec: {
      prompt: text(input.prompt),
      negativePrompt: text(input.negative_prompt) || undefined,
      cfgScale: input.cfg_scale === undefined ? undefined : Number(input.cfg_scale),
      ...frameSize('720p', aspect),
      fps: FPS,
      frames: seconds * FPS,
      quality: input.mode === 'pro' ? 'pro' : 'std',
      camera: cameraOfClip(input.camera_control),
      startImage: input.start_image_url
        ? await imageOf(job, engine, 'start_image_url', text(input.start_image_url))
        : undefined,
      endImage: input.end_image_url
        ? await imageOf(job, engine, 'end_image_url', text(input.end_image_url))
        : undefined,
      elements: elements.length > 0 ? elements.map(subjectOf) : undefined,
    },
  };
}

/** Director commands in brackets, in order; the words around them stay the scene's prompt. */
export function directorCommands(prompt: string): { commands: string[]; scene: string } {
  const commands = [...prompt.matchAll(/\[([^\]]+)\]/g)].flatMap((m) =>
    m[1]!.split(',').map((c) => c.trim()),
  );
  return {
    commands,
    scene: prompt
      .replace(/\[[^\]]*\]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  };
}

/** MiniMax's generations: six seconds at 720p. */
const MAXI_SECONDS = 6;

async function maxiRequest(job: Job, engine: VideoPool): Promise<VideoRequest> {
  const input = job.input;
  const model = text(input.model);
  const { commands, scene } = directorCommands(text(input.prompt));
  const director = model === 'maxi-i2v-director';
  return {
    model,
    prompt: text(input.prompt),
    resolution: '720p',
    ratio: '16:9',
    withSound: false,
    returnLastFrame: false,
    flex: false,
    spec: {
      prompt: director ? scene : text(input.prompt),
      ...frameSize('720p', '16:9'),
      fps: FPS,
      frames: MAXI_SECONDS * FPS,
      quality: 'std',
      camera: director && commands.length > 0 ? { kind: 'sequence', commands } : undefined,
      startImage: input.first_image_url
        ? await imageOf(job, engine, 'first_image_url', text(input.first_image_url))
        : undefined,
    },
  };
}

const SOUND_MODEL = 'dance-1-5-pro-251215';
const DEFAULT_DANCE_SECONDS = 5;

type ContentItem = { type: string; text?: string; image_url?: { url: string }; role?: string };

async function danceRequest(job: Job, engine: VideoPool): Promise<VideoRequest> {
  const input = job.input;
  const content = input.content as ContentItem[];
  const at = content.findIndex((item) => item.type === 'text');
  const parsed = at >= 0 ? parseDanceFlags(content[at]!.text ?? '') : { flags: {} as DanceFlags, text: '' };
  // A body field wins over its flag (DECISIONS section 9).
  const pick = <K extends keyof DanceFlags>(field: K) =>
    (input[field] ?? parsed.flags[field]) as DanceFlags[K];
  const images = await Promise.all(
    content.flatMap((item, i) =>
      item.type === 'image_url' && item.image_url
        ? [
            imageOf(job, engine, `content[${i}].image_url.url`, item.image_url.url).then((canvas) => ({
              role: item.role,
              canvas,
            })),
          ]
        : [],
    ),
  );
  const first = images.find((i) => i.role === 'first_frame')?.canvas;
  const resolution = pick('resolution') ?? defaultResolution(input.model);
  let ratio: string = pick('ratio') ?? '16:9';
  const adaptive = ratio === 'adaptive';
  const size = adaptive
    ? frameSize(resolution, first ? first.width / first.height : 16 / 9)
    : frameSize(resolution, ratio);
  if (adaptive) ratio = first ? nearestRatio(first.width / first.height) : '16:9';
  const frames =
    typeof input.frames === 'number' ? input.frames : (pick('duration') ?? DEFAULT_DANCE_SECONDS) * FPS;
  const seed = pick('seed');
  return {
    model: text(input.model),
    prompt: parsed.text,
    resolution,
    ratio,
    withSound: input.generate_audio === true && input.model === SOUND_MODEL,
    returnLastFrame: input.return_last_frame === true,
    flex: input.service_tier === 'flex',
    spec: {
      seed: seed === undefined || seed === -1 ? randomInt(0, 2 ** 31 - 1) : seed,
      prompt: parsed.text,
      ...size,
      fps: FPS,
      frames,
      quality: input.model !== undefined && String(input.model).includes('-pro') ? 'pro' : 'std',
      camera: pick('camerafixed') === true ? { kind: 'fixed' } : undefined,
      watermark: pick('watermark') === true,
      startImage: first,
      endImage: images.find((i) => i.role === 'last_frame')?.canvas,
      elements: images.filter((i) => i.role === 'reference_image').map((i) => i.canvas),
    },
  };
}

const RATIO_WORDS: [string, number][] = [
  ['16:9', 16 / 9],
  ['4:3', 4 / 3],
  ['1:1', 1],
  ['3:4', 3 / 4],
  ['9:16', 9 / 16],
  ['21:9', 21 / 9],
];

/** `adaptive` reports the listed ratio closest to the image's. */
function nearestRatio(aspect: number): string {
  return RATIO_WORDS.reduce((best, next) =>
    Math.abs(Math.log(next[1] / aspect)) < Math.abs(Math.log(best[1] / aspect)) ? next : best,
  )[0];
}

/**
 * A subject of `element_list`: there is no subject library here, so each id is drawn as a figure
 * of its own (colours and shape from the id), the same every time it is named.
 */
function subjectOf(id: string): Canvas {
  const size = 160;
  const data = new Uint8Array(size * size * 4);
  const hash = hashOf(id);
  const rgb = hsl(hash % 360, 0.75, 0.5);
  const lobes = 3 + (hash % 4);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const dx = (x - size / 2) / (size / 2);
      const dy = (y - size / 2) / (size / 2);
      const r = Math.hypot(dx, dy);
      const edge = 0.7 + 0.15 * Math.cos(lobes * Math.atan2(dy, dx));
      const o = (y * size + x) * 4;
      const shade = 1 - 0.4 * Math.max(0, dx + dy);
      data[o] = rgb[0]! * shade;
      data[o + 1] = rgb[1]! * shade;
      data[o + 2] = rgb[2]! * shade;
      data[o + 3] = r < edge ? 255 : 0;
    }
  }
  return { width: size, height: size, data };
}

/** `engine` decodes the request's images. */
export function requestOf(family: VideoFamily, job: Job, engine: VideoPool): Promise<VideoRequest> {
  if (family === 'dance') return danceRequest(job, engine);
  if (family === 'maxi') return maxiRequest(job, engine);
  return clipRequest(job, engine);
}
