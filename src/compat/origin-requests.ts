/**
 * What the origin's clients send, made into our requests. Where the origin accepts more than our
 * contract (members its SDKs always send, numbers where we take strings, its newer model names),
 * the origin path accepts it too, turned into the nearest request of ours; the result then passes
 * our validator like any request, so a value that is wrong on both sides is still a 400 naming
 * the field. Our own paths never see any of this.
 */
import { ourModel } from './origin.js';

type Body = Record<string, unknown>;

const isObject = (value: unknown): value is Body =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Members the origin's SDKs send that mean nothing here; dropped so our closed schemas pass. */
const IGNORED: Readonly<Record<string, readonly string[]>> = {
  '/serp/google': ['image_size'],
  // The origin's song length is its model's to choose, as ours is the song plan's.
  '/suno/audios': ['duration'],
  '/kling/videos': ['generate_audio', 'timeout'],
  '/seedance/videos': ['priority', 'output_format', 'tools', 'safety_identifier', 'omni_reference_task_type'],
  '/qrart/generate': ['rawurl'],
};

/** The actions that read `audio_url` here; the origin sends a list, `audio_urls`, with every action. */
const UPLOADS = new Set(['upload_extend', 'upload_cover']);

function suno(body: Body): void {
  const urls = body.audio_urls;
  delete body.audio_urls;
  if (Array.isArray(urls) && typeof urls[0] === 'string' && UPLOADS.has(String(body.action))) {
    body.audio_url ??= urls[0];
  }
  if (typeof body.negative_tags === 'string') body.style_negative ??= body.negative_tags;
  delete body.negative_tags;
  // The origin's `inspo` (a song from inspiration) is a generation from the prompt here.
  if (body.action === 'inspo') body.action = 'generate';
}

/** Kling's reference images: a first frame and an end frame, which are our two image members. */
function kling(body: Body): void {
  // The newer models' 4k mode: our best is pro.
  if (body.mode === '4k') body.mode = 'pro';
  const list = body.image_list;
  delete body.image_list;
  if (!Array.isArray(list)) return;
  const images = list.filter(isObject);
  const first = images.find((i) => i.type === 'first_frame') ?? images.find((i) => i.type === undefined);
  const end = images.find((i) => i.type === 'end_frame');
  if (typeof first?.image_url === 'string') body.start_image_url ??= first.image_url;
  if (typeof end?.image_url === 'string') body.end_image_url ??= end.image_url;
}

function seedance(body: Body): void {
  if (body.resolution === '4k') body.resolution = '1080p';
}

function hailuo(body: Body): void {
  // The origin's model is optional, its default `minimax-t2v`.
  body.model ??= 'minimax-t2v';
}

/** Rotation and padding come as numbers from the origin's SDKs; ours are their decimal strings. */
function qrart(body: Body): void {
  for (const member of ['rotate', 'padding_level', 'padding_noise']) {
    if (typeof body[member] === 'number') body[member] = String(body[member]);
  }
  body.action = 'generate';
}

const ADAPT: Readonly<Record<string, (body: Body) => void>> = {
  '/suno/audios': suno,
  '/kling/videos': kling,
  '/seedance/videos': seedance,
  '/hailuo/videos': hailuo,
  '/qrart/generate': qrart,
};

/** An origin request as ours, and the model name the client sent, for the answer to name. */
export function ourRequest(originPath: string, sent: unknown): { body: unknown; model?: string } {
  if (!isObject(sent)) return { body: sent };
  const body: Body = { ...sent };
  for (const member of IGNORED[originPath] ?? []) delete body[member];
  ADAPT[originPath]?.(body);
  if (typeof body.model !== 'string') return { body };
  const model = body.model;
  body.model = ourModel(model);
  return { body, model };
}
