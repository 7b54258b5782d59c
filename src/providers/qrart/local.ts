/**
 * Artistic QR code tasks on the local renderer (engines/qr): the task's request becomes render
 * options, the PNG goes to the blob store, and the task's response names it. A seed is chosen
 * when the request has none and reported, so that any image can be made again.
 */
import { randomInt } from 'node:crypto';
import {
  RenderPool,
  TooDense,
  UnreadableImage,
  Unscannable,
  type AspectRatio,
  type MarkerShape,
  type PayloadType,
  type PixelStyle,
  type Position,
  type SubMarker,
} from '../../engines/qr/index.js';
import { badRequest, ServiceError } from '../../errors.js';
import type { Capability, Job } from '../index.js';

/** Content images: what the renderer decodes at most. */
const IMAGE_BYTES = 20 * 1024 * 1024;
const IMAGE_PIXELS = 40_000_000;
/** The largest seed the contract allows is 2^53 - 1; the renderer mixes it into 32 bits. */
const NEW_SEED_MAX = 2 ** 31 - 1;

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

async function contentImage(job: Job, pool: RenderPool) {
  const url = text(job.input.content_image_url);
  if (!url) return undefined;
  const bytes = await job.fetchInput('content_image_url', url, IMAGE_BYTES);
  try {
    return await pool.readImage(bytes, IMAGE_PIXELS);
  } catch (error) {
    if (error instanceof UnreadableImage)
      throw badRequest([{ field: 'content_image_url', rule: error.message }]);
    throw error;
  }
}

export class QrArtCapability implements Capability {
  private readonly pool: RenderPool;

  /** `workers`: renders at a time, each on its own thread. */
  constructor(workers: number) {
    this.pool = new RenderPool(workers);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  async run(job: Job): Promise<unknown> {
    const input = job.input;
    const seed = number(input.seed) ?? randomInt(1, NEW_SEED_MAX);
    const image = await contentImage(job, this.pool);
    let art;
    try {
      art = await this.pool.render({
        content: String(input.content),
        type: (text(input.type) ?? 'text') as PayloadType,
        ecl: (text(input.ecl) ?? 'H') as 'L' | 'M' | 'Q' | 'H',
        seed,
        aspectRatio: (text(input.aspect_ratio) ?? '1:1') as AspectRatio,
        pixelStyle: text(input.pixel_style) as PixelStyle | undefined,
        markerShape: text(input.marker_shape) as MarkerShape | 'random' | undefined,
        subMarker: text(input.sub_marker) as SubMarker | 'random' | undefined,
        rotate: input.rotate === undefined ? 0 : Number(input.rotate),
        position: text(input.position) as Position | undefined,
        paddingLevel: input.padding_level === undefined ? 0 : Number(input.padding_level),
        paddingNoise: input.padding_noise === undefined ? 0 : Number(input.padding_noise),
        qrw: number(input.qrw),
        steps: number(input.steps),
        prompt: text(input.prompt),
        negativePrompt: text(input.negative_prompt),
        preset: text(input.preset),
        pattern: text(input.pattern),
        image,
      });
    } catch (error) {
      if (error instanceof TooDense) throw badRequest([{ field: 'content', rule: error.message }]);
      if (error instanceof Unscannable) throw new ServiceError('api_error', error.message);
      throw error;
    }
    const imageUrl = await job.saveFile(art.png, 'png');
    return {
      seed: art.seed,
      image_url: imageUrl,
      image_width: art.width,
      image_height: art.height,
      // Nouns of the prompt no drawing stands for: said, never silently dropped.
      unknown_nouns: art.unknownNouns,
      // Nouns drawn as a more general word ("heron" as "bird"), so that the picture is explained.
      stand_ins: art.standIns.map(({ noun, as }) => ({ noun, drawn_as: as })),
    };
  }
}
