/**
 * `/dance/videos`: video generation from a `content` list holding one prompt (with optional
 * inline flags) and up to four images, each a first frame, a last frame or a reference.
 */
import { Type, Closed, StringEnum, InputUrl, CallbackUrl, AsyncFlag } from './schema.js';
import { isRecord, mutuallyExclusive, present, violation, type Body } from './rules.js';
import { Envelope } from './responses.js';
import {
  parseDanceFlags,
  DURATION,
  RATIOS,
  RESOLUTIONS,
  SEED,
  type DanceFlags,
  type ParsedFlags,
} from './dance-flags.js';
import type { Operation, Rule, TaskSnapshot, Violation } from './types.js';

export const DANCE_MODELS = [
  'dance-1-0-pro-250528',
  'dance-1-0-pro-fast-251015',
  'dance-1-5-pro-251215',
  'dance-1-0-lite-t2v-250428',
  'dance-1-0-lite-i2v-250428',
] as const;
const TEXT_ONLY_MODEL = 'dance-1-0-lite-t2v-250428';
const IMAGE_MODEL = 'dance-1-0-lite-i2v-250428';
export const IMAGE_ROLES = ['first_frame', 'last_frame', 'reference_image'] as const;
export const DANCE_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'expired'] as const;

const MAX_REFERENCES = 4;
/** The spec does not cap the prompt; the same cap as /clip/videos, flags included. */
const TEXT_MAX = 2500;
const FRAMES = { minimum: 29, maximum: 289 } as const;

const ContentItem = Closed({
  type: StringEnum(['text', 'image_url'] as const, {
    description: 'text with text; image_url with image_url',
  }),
  text: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: TEXT_MAX,
      description: 'The prompt; may carry flags such as --rs 720p --dur 5 (a body field wins over a flag)',
    }),
  ),
  image_url: Type.Optional(
    Closed({ url: InputUrl('Image') }, { description: 'The image of an image_url item' }),
  ),
  role: Type.Optional(
    StringEnum(IMAGE_ROLES, {
      description: 'What the image is for; required with several images, a lone image is the first frame',
    }),
  ),
});

export const DanceRequest = Closed({
  model: StringEnum(DANCE_MODELS, { description: 'Model' }),
  content: Type.Array(ContentItem, {
    minItems: 1,
    maxItems: 1 + MAX_REFERENCES,
    description: 'At most one text item, and images: a first frame (and a last frame), or 1 to 4 references',
  }),
  // Defaults of resolution and ratio are filled in by a rule, so that a flag can still set them.
  resolution: Type.Optional(
    StringEnum(RESOLUTIONS, {
      description: 'Default 480p for lite models, 720p otherwise, unless --rs sets it',
    }),
  ),
  ratio: Type.Optional(StringEnum(RATIOS, { description: 'Default 16:9, unless --rt sets it' })),
  duration: Type.Optional(Type.Integer({ ...DURATION, description: 'Seconds; exclusive with frames' })),
  frames: Type.Optional(
    Type.Integer({
      ...FRAMES,
      description: 'Frame count of the form 25 + 4n, at 24 fps; exclusive with duration',
    }),
  ),
  seed: Type.Optional(
    Type.Integer({ ...SEED, description: '-1 is random; a fixed value reproduces a result' }),
  ),
  camerafixed: Type.Optional(Type.Boolean({ description: 'Fix the camera position' })),
  watermark: Type.Optional(Type.Boolean({ description: 'Add a watermark' })),
  generate_audio: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Only dance-1-5-pro-251215 generates audio; others ignore it',
    }),
  ),
  return_last_frame: Type.Optional(
    Type.Boolean({ default: false, description: 'Also return the last frame as an image' }),
  ),
  service_tier: Type.Optional(
    StringEnum(['default', 'flex'] as const, { default: 'default', description: 'flex: cheaper, slower' }),
  ),
  execution_expires_after: Type.Optional(
    Type.Integer({ minimum: 3600, maximum: 259200, default: 172800, description: 'Task timeout, seconds' }),
  ),
  callback_url: Type.Optional(CallbackUrl()),
  async: Type.Optional(AsyncFlag()),
});

interface Item {
  at: string;
  item: Record<string, unknown>;
}

function items(body: Body): Item[] {
  if (!Array.isArray(body.content)) return [];
  return body.content.flatMap((item: unknown, i) => (isRecord(item) ? [{ at: `content[${i}]`, item }] : []));
}

/** Items that are what they say; a malformed item is reported once, by `itemShape`. */
const texts = (body: Body) =>
  items(body).filter((x) => x.item.text !== undefined && x.item.image_url === undefined);
const images = (body: Body) =>
  items(body).filter((x) => x.item.image_url !== undefined && x.item.text === undefined);

const itemShape: Rule = (body) =>
  items(body).flatMap(({ at, item }): Violation[] => {
    const hasText = item.text !== undefined;
    const hasImage = item.image_url !== undefined;
    if (hasText && hasImage) return violation(at, 'must carry either text or image_url, not both');
    if (!hasText && !hasImage) {
      return violation(at, 'must carry text (type text) or image_url (type image_url)');
    }
    const type = hasText ? 'text' : 'image_url';
    return [
      ...(item.type === type ? [] : violation(`${at}.type`, `must be ${type} for an item with ${type}`)),
      ...(hasText && item.role !== undefined
        ? violation(`${at}.role`, 'is only allowed on image_url items')
        : []),
    ];
  });

const oneText: Rule = (body) =>
  texts(body)
    .slice(1)
    .flatMap(({ at }) => violation(at, 'must not be a second text item: content takes one prompt'));

/** A lone image without a role is the first frame (origin); with several, each must say. */
const roleOf = (item: Record<string, unknown>, count: number): unknown =>
  item.role ?? (count === 1 ? 'first_frame' : undefined);

const imagesFitModel: Rule = (body) => {
  const given = images(body);
  if (body.model === TEXT_ONLY_MODEL) {
    return given.flatMap(({ at }) =>
      violation(`${at}.image_url`, `is not allowed: model ${TEXT_ONLY_MODEL} generates from text only`),
    );
  }
  if (body.model === IMAGE_MODEL && given.length === 0) {
    return violation(
      'content',
      `must contain an image_url item: model ${IMAGE_MODEL} generates from an image`,
    );
  }
  return [];
};

const imageRoles: Rule = (body) => {
  const given = images(body);
  const out: Violation[] = [];
  const seen = { first_frame: 0, last_frame: 0, reference_image: 0 };
  const frames = given.filter(({ item }) =>
    ['first_frame', 'last_frame'].includes(String(roleOf(item, given.length))),
  );
  for (const { at, item } of given) {
    const role = roleOf(item, given.length);
    const field = `${at}.role`;
    if (role === undefined) out.push({ field, rule: 'is required when content has more than one image' });
    if (role !== 'first_frame' && role !== 'last_frame' && role !== 'reference_image') continue;
    seen[role] += 1;
    if (role === 'reference_image') {
      if (frames.length > 0) {
        out.push({
          field,
          rule: 'cannot be reference_image when content also has a first_frame or last_frame',
        });
      } else if (seen.reference_image > MAX_REFERENCES) {
        out.push({ field, rule: `must not be reference_image: at most ${MAX_REFERENCES} reference images` });
      }
    } else if (seen[role] > 1) {
      out.push({ field, rule: `must not be a second ${role}` });
    }
  }
  const last = given.find(({ item }) => roleOf(item, given.length) === 'last_frame');
  if (last && seen.first_frame === 0) {
    out.push({ field: `${last.at}.role`, rule: 'is last_frame, which needs a first_frame image as well' });
  }
  return out;
};

const flagsOf = (body: Body): (ParsedFlags & { field: string })[] =>
  texts(body).flatMap(({ at, item }) =>
    typeof item.text === 'string'
      ? [{ field: `${at}.text`, ...parseDanceFlags(item.text, `${at}.text`) }]
      : [],
  );

const validFlags: Rule = (body) =>
  flagsOf(body).flatMap(({ field, flags, written, violations }) =>
    // A body field wins over its own flag, but frames and --dur would set the length two ways.
    present(body, 'frames') && flags.duration !== undefined
      ? [...violations, { field: `${field} ${written.duration}`, rule: 'cannot be combined with frames' }]
      : violations,
  );

const promptBesideFlags: Rule = (body) => {
  if (images(body).length > 0) return [];
  return texts(body).flatMap(({ at, item }) =>
    typeof item.text === 'string' && parseDanceFlags(item.text).text === ''
      ? violation(`${at}.text`, 'must hold a prompt besides its flags when content has no image')
      : [],
  );
};

const framesForm: Rule = (body) =>
  typeof body.frames === 'number' && (body.frames - 25) % 4 !== 0
    ? violation('frames', 'must be of the form 25 + 4n (29, 33, 37, …, 289)')
    : [];

/** Fills the defaults that depend on the model or that a flag may set; it reports nothing. */
const fillDefaults: Rule = (body) => {
  const flags: DanceFlags = Object.assign({}, ...flagsOf(body).map((p) => p.flags));
  if (!present(body, 'resolution') && flags.resolution === undefined && typeof body.model === 'string') {
    body.resolution = body.model.includes('-lite-') ? '480p' : '720p';
  }
  if (!present(body, 'ratio') && flags.ratio === undefined) body.ratio = '16:9';
  const given = images(body);
  if (given.length === 1 && given[0] && given[0].item.role === undefined) given[0].item.role = 'first_frame';
  return [];
};

export const danceRules: readonly Rule[] = [
  itemShape,
  oneText,
  imagesFitModel,
  imageRoles,
  validFlags,
  promptBesideFlags,
  mutuallyExclusive('duration', 'frames'),
  framesForm,
  fillDefaults,
];

const Uuid = Type.String({ format: 'uuid' });

export const VideoTaskItem = Type.Object({
  id: Type.String({ description: 'Task item id' }),
  model: Type.String(),
  status: StringEnum(DANCE_STATUSES),
  content: Type.Optional(
    Type.Object({
      video_url: Type.String(),
      last_frame_url: Type.Optional(Type.String({ description: 'With return_last_frame' })),
    }),
  ),
  seed: Type.Optional(Type.Integer()),
  resolution: Type.Optional(Type.String()),
  ratio: Type.Optional(Type.String()),
  duration: Type.Optional(Type.Number({ description: 'Seconds' })),
  framespersecond: Type.Optional(Type.Number()),
  service_tier: Type.Optional(StringEnum(['default', 'flex'] as const)),
  execution_expires_after: Type.Optional(Type.Integer({ description: 'Seconds' })),
  usage: Type.Optional(Type.Object({ completion_tokens: Type.Integer(), total_tokens: Type.Integer() })),
  created_at: Type.Integer({ description: 'unix seconds' }),
  updated_at: Type.Integer({ description: 'unix seconds' }),
});

const envelope = Envelope(Type.Array(VideoTaskItem));

/** The spec gives /dance/videos results a task_id and trace_id always. */
export const DanceResponse = Type.Object({ ...envelope.properties, task_id: Uuid, trace_id: Uuid });

/** `/dance/videos` items say their state in `status`, with the task's own words. */
const DANCE_SNAPSHOT: TaskSnapshot = {
  field: 'status',
  words: {
    queued: 'queued',
    running: 'running',
    succeeded: 'succeeded',
    failed: 'failed',
    expired: 'expired',
  },
  standIn: 'dance',
};

export const dance: Operation = {
  path: '/dance/videos',
  family: 'dance',
  kind: 'task',
  summary: 'Video generation from a content list of a prompt and images',
  accept: ['application/json'],
  priceKey: 'dance.videos',
  request: DanceRequest,
  rules: danceRules,
  response: DanceResponse,
  snapshot: DANCE_SNAPSHOT,
};
