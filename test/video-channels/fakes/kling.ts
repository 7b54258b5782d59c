/**
 * Kling's public API on loopback, after its documentation (app.klingai.com/global/dev/document-api):
 * `POST /v1/videos/{text2video|image2video|video-extend|omni-video}` creates a task and
 * `GET /v1/videos/{endpoint}/{task_id}` reads it, every answer `{code, message, request_id, data}`
 * with `task_status` submitted → processing → succeed | failed and the video in
 * `task_result.videos[0]` (`id`, `url`, `duration` as text). The bearer token must be a JWT
 * signed HS256 with the secret key, its issuer the access key and the time within `nbf`..`exp`,
 * or the one pre-made token it was given. Failures come as Kling documents them: HTTP 401 with
 * codes 1000–1004, 400 with 1201, 404 with 1203, 429 with 1302, 500 with 5000. Each endpoint
 * refuses fields it does not document, so that a field sent to the wrong endpoint shows.
 */
import { createHmac } from 'node:crypto';
import {
  reply,
  startFake,
  TaskBook,
  VIDEO_PATH,
  type FakeServer,
  type Json,
  type Received,
  type Reply,
} from './server.js';

export const KLING_MODELS = [
  'kling-v1',
  'kling-v1-5',
  'kling-v1-6',
  'kling-v2-master',
  'kling-v2-1',
  'kling-v2-1-master',
  'kling-v2-5-turbo',
  'kling-v2-6',
  'kling-video-o1',
];

const CAMERA_TYPES = ['simple', 'down_back', 'forward_up', 'right_turn_forward', 'left_turn_forward'];
const AXES = ['horizontal', 'vertical', 'pan', 'tilt', 'roll', 'zoom'];

/** The fields each endpoint documents; anything else is refused. */
const FIELDS: Record<string, string[]> = {
  text2video: [
    'model_name',
    'prompt',
    'negative_prompt',
    'cfg_scale',
    'mode',
    'camera_control',
    'aspect_ratio',
    'duration',
    'callback_url',
    'external_task_id',
  ],
  image2video: [
    'model_name',
    'image',
    'image_tail',
    'prompt',
    'negative_prompt',
    'cfg_scale',
    'mode',
    'static_mask',
    'dynamic_masks',
    'camera_control',
    'duration',
    'callback_url',
    'external_task_id',
  ],
  'video-extend': ['video_id', 'prompt', 'negative_prompt', 'cfg_scale', 'callback_url'],
  'omni-video': [
    'model_name',
    'prompt',
    'negative_prompt',
    'image_list',
    'element_list',
    'video_list',
    'mode',
    'aspect_ratio',
    'duration',
    'callback_url',
    'external_task_id',
  ],
};

const STATUS_WORD = { queued: 'submitted', running: 'processing', succeeded: 'succeed', failed: 'failed' };

export interface FakeKling extends FakeServer {
  book: TaskBook;
}

const kling = (status: number, code: number, message: string): Reply =>
  reply(status, { code, message, request_id: `req-${Date.now()}` });

const invalid = (message: string) => kling(400, 1201, `Invalid request parameters: ${message}`);

function decode(part: string): Json | undefined {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString()) as Json;
  } catch {
    return undefined;
  }
}

/** Why the request's token is not accepted, as Kling's code and message; undefined when it is. */
function refusal(authorization: string | undefined, access: string, secret: string, preMade: string) {
  if (!authorization) return kling(401, 1001, 'Authorization is empty');
  const token = /^Bearer (\S+)$/.exec(authorization)?.[1];
  if (token === undefined) return kling(401, 1002, 'Authorization is invalid');
  if (token === preMade) return undefined;
  const [header = '', claims = '', signature = ''] = token.split('.');
  const expected = createHmac('sha256', secret).update(`${header}.${claims}`).digest('base64url');
  const head = decode(header);
  const body = decode(claims);
  if (signature !== expected || head?.alg !== 'HS256' || head.typ !== 'JWT' || body?.iss !== access) {
    return kling(401, 1002, 'Authorization is invalid');
  }
  const now = Math.floor(Date.now() / 1000);
  if (typeof body.nbf !== 'number' || body.nbf > now)
    return kling(401, 1003, 'Authorization is not yet valid');
  if (typeof body.exp !== 'number' || body.exp <= now) return kling(401, 1004, 'Authorization has expired');
  return undefined;
}

const isText = (value: unknown, max: number) =>
  typeof value === 'string' && value.length > 0 && value.length <= max;

function cameraProblem(camera: unknown): string | undefined {
  if (typeof camera !== 'object' || camera === null) return 'camera_control must be an object';
  const { type, config } = camera as Json;
  if (!CAMERA_TYPES.includes(String(type))) return `camera_control.type ${String(type)} is unknown`;
  if (type !== 'simple') return config === undefined ? undefined : 'camera_control.config is only for simple';
  const values = AXES.map((axis) => (config as Json | undefined)?.[axis] ?? 0);
  if (values.some((v) => typeof v !== 'number' || v < -10 || v > 10))
    return 'camera_control.config is invalid';
  return values.filter((v) => v !== 0).length === 1
    ? undefined
    : 'simple needs exactly one non-zero config member';
}

/** What is wrong with a create request for `endpoint`, in Kling's words; undefined when nothing. */
function problem(endpoint: string, body: Json, videos: Set<string>): string | undefined {
  const unknown = Object.keys(body).find((field) => !(FIELDS[endpoint] ?? []).includes(field));
  if (unknown !== undefined) return `${unknown} is not a parameter of ${endpoint}`;
  if (endpoint === 'video-extend') {
    return typeof body.video_id === 'string' && videos.has(body.video_id) ? undefined : 'video_id is unknown';
  }
  const model = body.model_name ?? 'kling-v1';
  if (!KLING_MODELS.includes(String(model))) return `model_name ${String(model)} is not supported`;
  if (body.prompt !== undefined && !isText(body.prompt, 2500)) return 'prompt must be 1 to 2500 characters';
  if (body.negative_prompt !== undefined && !isText(body.negative_prompt, 2500))
    return 'negative_prompt is too long';
  if (
    body.cfg_scale !== undefined &&
    !(typeof body.cfg_scale === 'number' && body.cfg_scale >= 0 && body.cfg_scale <= 1)
  )
    return 'cfg_scale must be a float in [0, 1]';
  if (body.mode !== undefined && body.mode !== 'std' && body.mode !== 'pro') return 'mode must be std or pro';
  if (body.duration !== undefined && body.duration !== '5' && body.duration !== '10')
    return 'duration must be the string 5 or 10';
  if (body.aspect_ratio !== undefined && !['16:9', '9:16', '1:1'].includes(String(body.aspect_ratio)))
    return 'aspect_ratio must be 16:9, 9:16 or 1:1';
  if (body.camera_control !== undefined) {
    const wrong = cameraProblem(body.camera_control);
    if (wrong !== undefined) return wrong;
  }
  if (endpoint === 'text2video' && body.prompt === undefined) return 'prompt is required';
  if (endpoint === 'image2video') {
    if (body.image === undefined && body.image_tail === undefined) return 'image or image_tail is required';
    if (body.image_tail !== undefined && body.camera_control !== undefined)
      return 'image_tail and camera_control cannot be used together';
  }
  if (endpoint === 'omni-video') {
    if (model !== 'kling-video-o1') return `model_name ${String(model)} is not an omni model`;
    const images = Array.isArray(body.image_list) ? (body.image_list as Json[]) : [];
    if (
      images.some(
        (i) =>
          !isText(i.image_url, 4096) || !['first_frame', 'end_frame', undefined].includes(i.type as string),
      )
    )
      return 'image_list items need image_url and an optional type first_frame or end_frame';
    const videoList = Array.isArray(body.video_list) ? (body.video_list as Json[]) : [];
    if (
      videoList.some((v) => !isText(v.video_url, 4096) || !['feature', 'base'].includes(String(v.refer_type)))
    )
      return 'video_list items need video_url and refer_type feature or base';
  }
  return undefined;
}

export async function startFakeKling(
  video: Buffer,
  keys: { access: string; secret: string; preMade: string },
): Promise<FakeKling> {
  let counter = 831_922_345_719_271_000;
  const book = new TaskBook(() => String((counter += 1)));
  const endpoints = new Map<string, string>();
  const videos = new Set<string>();
  let base = '';

  const taskData = (id: string, endpoint: string): Reply => {
    const task = book.get(id);
    if (task === undefined || endpoints.get(id) !== endpoint)
      return kling(404, 1203, 'Requested resource does not exist');
    const phase = book.poll(task);
    const videoId = `${task.id}-video`;
    if (phase === 'succeeded') videos.add(videoId);
    const seconds = Number(task.input.duration ?? '5');
    return reply(200, {
      code: 0,
      message: 'SUCCEED',
      request_id: `req-${task.polls}`,
      data: {
        task_id: task.id,
        task_status: STATUS_WORD[phase],
        task_status_msg: phase === 'failed' ? task.failure : '',
        task_info: {},
        created_at: task.created,
        updated_at: Date.now(),
        ...(phase === 'succeeded'
          ? {
              task_result: {
                videos: [
                  { id: videoId, url: `${base}${VIDEO_PATH}${task.id}.mp4`, duration: `${seconds + 0.042}` },
                ],
              },
            }
          : {}),
      },
    });
  };

  const route = (request: Received): Reply => {
    const refused = refusal(request.authorization, keys.access, keys.secret, keys.preMade);
    if (refused) return refused;
    const match = /^\/v1\/videos\/(text2video|image2video|video-extend|omni-video)(?:\/([^/]+))?$/.exec(
      request.path,
    );
    if (match === null) return kling(404, 1203, 'Requested resource does not exist');
    const [, endpoint = '', id] = match;
    if (request.method === 'GET' && id !== undefined) return taskData(decodeURIComponent(id), endpoint);
    if (request.method !== 'POST' || id !== undefined) return kling(400, 1202, 'Request method is invalid');
    const body = request.body ?? {};
    const wrong = problem(endpoint, body, videos);
    if (wrong !== undefined) return invalid(wrong);
    const task = book.create(body);
    endpoints.set(task.id, endpoint);
    return reply(200, {
      code: 0,
      message: 'SUCCEED',
      request_id: `req-${task.id}`,
      data: {
        task_id: task.id,
        task_status: 'submitted',
        task_info: {},
        created_at: task.created,
        updated_at: task.created,
      },
    });
  };

  // A careless upstream: its refusals repeat the token and the access key they were given.
  const failure = (status: number, request: Received) => {
    const echo = `${request.authorization ?? ''} (access key ${keys.access})`;
    if (status === 401) return { code: 1002, message: `Authorization is invalid: ${echo}`, request_id: 'r' };
    if (status === 429)
      return { code: 1302, message: 'The API request is too fast, please slow down', request_id: 'r' };
    return { code: 5000, message: `Server internal error for ${echo}`, request_id: 'r' };
  };

  const server = await startFake(route, failure, video);
  base = server.baseUrl;
  return { ...server, book };
}
