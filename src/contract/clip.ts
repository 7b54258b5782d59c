/**
 * `/clip/videos`: video generation from text, from a first (and last) frame, or by extending a
 * video, with optional camera movement, reference subjects and one reference video.
 */
import {
  Type,
  Closed,
  StringEnum,
  NumberEnum,
  PatternString,
  InputUrl,
  CallbackUrl,
  AsyncFlag,
  ObjectOrJsonString,
} from './schema.js';
import {
  allowedOnlyWhen,
  embeddedObject,
  isRecord,
  present,
  requiredWhen,
  violation,
  type Body,
} from './rules.js';
import { Envelope, MediaItem, MEDIA_SNAPSHOT } from './responses.js';
import type { Operation, Rule } from './types.js';

export const CLIP_ACTIONS = ['text2video', 'image2video', 'extend'] as const;
export const CLIP_MODELS = [
  'clip-v1',
  'clip-v1-6',
  'clip-v2-master',
  'clip-v2-1-master',
  'clip-v2-5-turbo',
  'clip-video-o1',
] as const;
export const CAMERA_TYPES = [
  'simple',
  'down_back',
  'forward_up',
  'left_turn_forward',
  'right_turn_forward',
] as const;
const CAMERA_AXES = ['horizontal', 'vertical', 'pan', 'tilt', 'roll', 'zoom'] as const;

/** The spec does not cap the prompt; 2500 characters is the origin's documented limit. */
const PROMPT_MAX = 2500;
/** Reference subjects plus reference images, with and without a reference video. */
const REFERENCES_WITH_VIDEO = 4;
const REFERENCES_WITHOUT_VIDEO = 7;
const FRAMES = ['start_image_url', 'end_image_url'] as const;

const Axis = (description: string) =>
  Type.Optional(Type.Number({ minimum: -1, maximum: 1, description: `${description}, from -1 to 1` }));

export const CameraControl = Closed({
  type: StringEnum(CAMERA_TYPES, {
    description: 'simple: one movement set in config; the others are preset movements without config',
  }),
  config: Type.Optional(
    Closed(
      {
        horizontal: Axis('Horizontal translation'),
        vertical: Axis('Vertical translation'),
        pan: Axis('Rotation about the vertical axis'),
        tilt: Axis('Rotation about the horizontal axis'),
        roll: Axis('Rotation about the lens axis'),
        zoom: Axis('Zoom'),
      },
      { description: 'With type simple: exactly one non-zero member' },
    ),
  ),
});

/** Format, length, resolution, frame rate and size are checked when the video is fetched (DECISIONS 7). */
const ReferenceVideo = Closed({
  video_url: InputUrl('Reference video: MP4 or MOV, 3 to 10 s, 720 to 2160 px, 24 to 60 fps, at most 200 MB'),
  refer_type: Type.Optional(
    StringEnum(['feature', 'base'] as const, {
      default: 'base',
      description:
        'feature: a video to take features from; base: the video to edit (takes no start or end frame)',
    }),
  ),
  keep_original_sound: Type.Optional(
    StringEnum(['yes', 'no'] as const, { description: "Keep the video's sound (yes) or remove it (no)" }),
  ),
});

/** A decimal, as the origin declares cfg_scale a string; the range is checked by a rule. */
const NUMERIC = '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?$';

export const ClipRequest = Closed({
  action: StringEnum(CLIP_ACTIONS, {
    description: 'text2video: from prompt; image2video: from start_image_url; extend: continues video_id',
  }),
  mode: Type.Optional(
    StringEnum(['std', 'pro'] as const, { default: 'std', description: 'Generation mode' }),
  ),
  model: Type.Optional(StringEnum(CLIP_MODELS, { default: 'clip-v1', description: 'Model' })),
  prompt: Type.Optional(
    Type.String({ maxLength: PROMPT_MAX, description: 'Generation prompt; required with text2video' }),
  ),
  negative_prompt: Type.Optional(Type.String({ maxLength: 200, description: 'What to avoid' })),
  duration: Type.Optional(
    NumberEnum([5, 10] as const, { description: 'Seconds; only 5 when end_image_url is given' }),
  ),
  video_id: Type.Optional(
    Type.String({ minLength: 1, description: 'The video to extend (the id of a result item); with extend' }),
  ),
  cfg_scale: Type.Optional(
    Type.Union([Type.Number({ minimum: 0, maximum: 1 }), PatternString(NUMERIC, 'must be a number')], {
      description: 'From 0 to 1, a number or a numeric string; larger follows the prompt more closely',
      'x-rule': 'must be a number from 0 to 1, or a string holding one',
    }),
  ),
  aspect_ratio: Type.Optional(
    StringEnum(['16:9', '9:16', '1:1'] as const, { default: '16:9', description: 'Aspect ratio' }),
  ),
  callback_url: Type.Optional(CallbackUrl()),
  start_image_url: Type.Optional(InputUrl('First frame; required with image2video')),
  end_image_url: Type.Optional(InputUrl('Last frame; with image2video')),
  camera_control: Type.Optional(ObjectOrJsonString(CameraControl, 'Camera movement.')),
  element_list: Type.Optional(
    Type.Array(Closed({ element_id: Type.String({ minLength: 1, description: 'Subject library id' }) }), {
      maxItems: REFERENCES_WITHOUT_VIDEO,
      description:
        'Reference subjects; with the start and end frames at most 4 when video_list is given, 7 otherwise',
    }),
  ),
  video_list: Type.Optional(
    Type.Array(ReferenceVideo, { minItems: 1, maxItems: 1, description: 'One reference video' }),
  ),
  async: Type.Optional(AsyncFlag()),
});

const isAction = (action: (typeof CLIP_ACTIONS)[number]) => (body: Body) => body.action === action;

const endFrameIsFiveSeconds: Rule = (body) =>
  present(body, 'end_image_url') && present(body, 'duration') && body.duration !== 5
    ? violation('duration', 'must be 5 when end_image_url is given')
    : [];

const cfgScaleInRange: Rule = (body) => {
  if (typeof body.cfg_scale !== 'string') return [];
  const value = Number(body.cfg_scale);
  return value >= 0 && value <= 1 ? [] : violation('cfg_scale', 'must be a number from 0 to 1');
};

const parseCamera = embeddedObject('camera_control', CameraControl);

/** Parses the string form in place; the type and config are compared only once the shape holds. */
const cameraControl: Rule = (body) => {
  const shape = parseCamera(body);
  const camera = body.camera_control;
  if (shape.length > 0 || !isRecord(camera)) return shape;
  const config = camera.config;
  if (camera.type !== 'simple') {
    return config === undefined
      ? []
      : violation('camera_control.config', 'is only allowed when camera_control.type is simple');
  }
  if (!isRecord(config)) {
    return violation('camera_control.config', 'is required when camera_control.type is simple');
  }
  const moving = CAMERA_AXES.filter((axis) => config[axis] !== undefined && config[axis] !== 0);
  return moving.length === 1
    ? []
    : violation(
        'camera_control.config',
        `must have exactly one non-zero member when camera_control.type is simple (has ${moving.length})`,
      );
};

/** The spec counts the frames as reference images alongside the subjects. */
const referencesWithinLimit: Rule = (body) => {
  if (!Array.isArray(body.element_list)) return [];
  const images = FRAMES.filter((f) => present(body, f)).length;
  const withVideo = present(body, 'video_list');
  const limit = withVideo ? REFERENCES_WITH_VIDEO : REFERENCES_WITHOUT_VIDEO;
  if (body.element_list.length + images <= limit) return [];
  const context = withVideo ? 'with video_list' : 'without video_list';
  const frames = images > 0 ? `, here with ${images} of start_image_url and end_image_url` : '';
  return violation(
    'element_list',
    `must have at most ${limit - images} items: subjects plus frames are at most ${limit} ${context}${frames}`,
  );
};

const baseVideoHasNoFrames: Rule = (body) => {
  const frames = FRAMES.filter((f) => present(body, f));
  if (frames.length === 0 || !Array.isArray(body.video_list)) return [];
  return body.video_list.flatMap((video: unknown, i) =>
    isRecord(video) && (video.refer_type ?? 'base') === 'base'
      ? violation(
          `video_list[${i}].refer_type`,
          `must be feature when ${frames.join(' or ')} is given: a base video is edited as it is, without start or end frames`,
        )
      : [],
  );
};

export const clipRules: readonly Rule[] = [
  requiredWhen('prompt', isAction('text2video'), 'action is text2video'),
  requiredWhen('start_image_url', isAction('image2video'), 'action is image2video'),
  requiredWhen('video_id', isAction('extend'), 'action is extend'),
  // A frame or video id that the action would ignore is a client mistake, not a no-op.
  allowedOnlyWhen('start_image_url', isAction('image2video'), 'action is image2video'),
  allowedOnlyWhen('end_image_url', isAction('image2video'), 'action is image2video'),
  allowedOnlyWhen('video_id', isAction('extend'), 'action is extend'),
  endFrameIsFiveSeconds,
  cfgScaleInRange,
  cameraControl,
  referencesWithinLimit,
  baseVideoHasNoFrames,
];

export const clip: Operation = {
  path: '/clip/videos',
  family: 'clip',
  kind: 'task',
  summary: 'Video generation from text, from an image, or by extending a video',
  accept: ['application/json'],
  priceKey: 'clip.videos',
  request: ClipRequest,
  rules: clipRules,
  response: Envelope(Type.Array(MediaItem)),
  snapshot: MEDIA_SNAPSHOT,
};
