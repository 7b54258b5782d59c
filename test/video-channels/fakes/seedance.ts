/**
 * BytePlus ModelArk's Seedance task API on loopback, after its documentation
 * (docs.byteplus.com/en/docs/ModelArk/1520757 and 1299023): `POST /api/v3/contents/generations/tasks`
 * takes `model` and `content` (one text item whose text may carry `--rs --rt --dur --frames --fps
 * --seed --cf --wm` commands, long forms too, and image_url items with roles) and answers `{id}`;
 * `GET …/tasks/{id}` answers the task with `status` queued → running → succeeded | failed, and
 * once succeeded `content.video_url` (plus `last_frame_url` with `return_last_frame`), `seed`,
 * `resolution`, `ratio`, `duration`, `framespersecond` and `usage`. Errors come in Ark's shape
 * `{error: {code, message, param, type}}`: 401 AuthenticationError, 400 InvalidParameter, 404
 * for an unknown model or task, 429 and 500 when scripted.
 */
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

export const SEEDANCE_MODELS = [
  'seedance-1-0-pro-250528',
  'seedance-1-0-pro-fast-251015',
  'seedance-1-5-pro-251215',
  'seedance-1-0-lite-t2v-250428',
  'seedance-1-0-lite-i2v-250428',
];

const TASKS = '/api/v3/contents/generations/tasks';

/** The documented top-level members of a create request. */
const MEMBERS = [
  'model',
  'content',
  'callback_url',
  'return_last_frame',
  'service_tier',
  'execution_expires_after',
  'generate_audio',
  'draft',
  'resolution',
  'ratio',
  'duration',
  'frames',
  'seed',
  'camera_fixed',
  'watermark',
];

/** Each text command, long and short, with the setting it makes and the values it takes. */
const COMMANDS: Record<string, { setting: string; valid: (v: string) => boolean }> = {};
const command = (names: string[], setting: string, valid: (v: string) => boolean) => {
  for (const name of names) COMMANDS[name] = { setting, valid };
};
const integer = (min: number, max: number) => (v: string) => /^-?\d+$/.test(v) && +v >= min && +v <= max;
const bool = (v: string) => v === 'true' || v === 'false';
command(['--rs', '--resolution'], 'resolution', (v) => ['480p', '720p', '1080p'].includes(v));
command(['--rt', '--ratio'], 'ratio', (v) =>
  ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'].includes(v),
);
command(['--dur', '--duration'], 'duration', integer(2, 12));
command(['--frames'], 'frames', (v) => integer(29, 289)(v) && (+v - 25) % 4 === 0);
command(['--fps', '--framespersecond'], 'framespersecond', (v) => v === '24');
command(['--seed'], 'seed', integer(-1, 4_294_967_295));
command(['--cf', '--camerafixed'], 'camerafixed', bool);
command(['--wm', '--watermark'], 'watermark', bool);

export interface FakeSeedance extends FakeServer {
  book: TaskBook;
  /** The settings each created task read from its text commands, by task id. */
  settings: Map<string, Record<string, string>>;
}

const ark = (status: number, type: string, code: string, message: string, param?: string): Reply =>
  reply(status, { error: { code, message: `${message} Request id: 0217${Date.now()}`, param, type } });

const invalid = (param: string, why: string) =>
  ark(
    400,
    'BadRequest',
    'InvalidParameter',
    `The parameter \`${param}\` specified in the request is not valid: ${why}.`,
    param,
  );

/** The text's commands as settings, or why they are not valid. */
function commandsOf(text: string): Record<string, string> | string {
  const settings: Record<string, string> = {};
  const tokens = text.split(/\s+/);
  for (let i = 0; i < tokens.length; i++) {
    const known = COMMANDS[tokens[i] ?? ''];
    if (known === undefined) continue;
    const value = tokens[i + 1] ?? '';
    if (!known.valid(value)) return `${tokens[i]} ${value}`;
    if (settings[known.setting] !== undefined) return `${tokens[i]} given twice`;
    settings[known.setting] = value;
    i++;
  }
  if (settings.duration !== undefined && settings.frames !== undefined) return '--dur with --frames';
  return settings;
}

function check(body: Json): Reply | { settings: Record<string, string> } {
  const unknown = Object.keys(body).find((member) => !MEMBERS.includes(member));
  if (unknown !== undefined) return invalid(unknown, 'unknown parameter');
  if (!SEEDANCE_MODELS.includes(String(body.model))) {
    return ark(
      404,
      'NotFound',
      'InvalidEndpointOrModel.NotFound',
      `The model or endpoint ${String(body.model)} does not exist or you do not have access to it.`,
    );
  }
  if (!Array.isArray(body.content) || body.content.length === 0)
    return invalid('content', 'must be a non-empty list');
  const items = body.content as Json[];
  const texts = items.filter((item) => item.type === 'text');
  const images = items.filter((item) => item.type === 'image_url');
  if (texts.length + images.length !== items.length)
    return invalid('content.type', 'must be text or image_url');
  if (texts.length > 1) return invalid('content', 'takes one text item');
  if (texts.some((t) => typeof t.text !== 'string' || t.text === ''))
    return invalid('content.text', 'must be text');
  for (const image of images) {
    const url = (image.image_url as Json | undefined)?.url;
    if (typeof url !== 'string' || url === '') return invalid('content.image_url.url', 'is required');
    if (
      image.role !== undefined &&
      !['first_frame', 'last_frame', 'reference_image'].includes(String(image.role))
    )
      return invalid('content.role', `${String(image.role)} is not a role`);
  }
  if (images.length > 0 && String(body.model).includes('-t2v-'))
    return invalid('content', 'this model takes no image');
  if (body.service_tier !== undefined && !['default', 'flex'].includes(String(body.service_tier)))
    return invalid('service_tier', 'must be default or flex');
  const expires = body.execution_expires_after;
  if (
    expires !== undefined &&
    !(Number.isInteger(expires) && Number(expires) >= 3600 && Number(expires) <= 259200)
  )
    return invalid('execution_expires_after', 'must be 3600 to 259200');
  for (const flag of ['return_last_frame', 'generate_audio'])
    if (body[flag] !== undefined && typeof body[flag] !== 'boolean')
      return invalid(flag, 'must be a boolean');
  const settings = commandsOf(String(texts[0]?.text ?? ''));
  return typeof settings === 'string' ? invalid('content.text', `command ${settings}`) : { settings };
}

export async function startFakeSeedance(video: Buffer, key: string): Promise<FakeSeedance> {
  let counter = 0;
  const book = new TaskBook(() => `cgt-20250612${String((counter += 1)).padStart(6, '0')}`);
  const settings = new Map<string, Record<string, string>>();
  let base = '';

  const taskOf = (id: string): Reply => {
    const task = book.get(id);
    if (task === undefined) return ark(404, 'NotFound', 'ResourceNotFound', `The task ${id} is not found.`);
    const phase = book.poll(task);
    const set = settings.get(id) ?? {};
    const seconds = Math.floor(task.created / 1000);
    const frames = set.frames === undefined ? undefined : Number(set.frames);
    const done = phase === 'succeeded';
    return reply(200, {
      id,
      model: task.input.model,
      status: phase,
      error:
        phase === 'failed' ? { code: 'OutputVideoSensitiveContentDetected', message: task.failure } : null,
      created_at: seconds,
      updated_at: Math.floor(Date.now() / 1000),
      ...(done
        ? {
            content: {
              video_url: `${base}${VIDEO_PATH}${id}.mp4`,
              ...(task.input.return_last_frame === true
                ? { last_frame_url: `${base}${VIDEO_PATH}${id}-last.png` }
                : {}),
            },
            seed: set.seed === undefined || set.seed === '-1' ? 20_250_612 : Number(set.seed),
            resolution: set.resolution ?? '720p',
            ratio: set.ratio ?? '16:9',
            duration: frames === undefined ? Number(set.duration ?? 5) : Math.round(frames / 24),
            framespersecond: 24,
            usage: { completion_tokens: 108_900, total_tokens: 108_900 },
          }
        : {}),
      service_tier: task.input.service_tier ?? 'default',
      execution_expires_after: task.input.execution_expires_after ?? 172_800,
    });
  };

  const route = (request: Received): Reply => {
    if (request.authorization !== `Bearer ${key}`) {
      return ark(
        401,
        'Unauthorized',
        'AuthenticationError',
        'The API key or AK/SK in the request is missing or invalid.',
      );
    }
    if (request.method === 'POST' && request.path === TASKS) {
      const checked = check(request.body ?? {});
      if (!('settings' in checked)) return checked;
      const task = book.create(request.body ?? {});
      settings.set(task.id, checked.settings);
      return reply(200, { id: task.id });
    }
    if (request.method === 'GET' && request.path.startsWith(`${TASKS}/`)) {
      return taskOf(decodeURIComponent(request.path.slice(TASKS.length + 1)));
    }
    return ark(404, 'NotFound', 'ResourceNotFound', `${request.method} ${request.path} is not an API.`);
  };

  // A careless upstream: its refusals repeat the authorization they were given.
  const failure = (status: number, request: Received) => {
    const echo = request.authorization ?? '';
    if (status === 401)
      return {
        error: { code: 'AuthenticationError', message: `Invalid key: ${echo}`, type: 'Unauthorized' },
      };
    if (status === 429)
      return {
        error: {
          code: 'RateLimitExceeded.EndpointRPMExceeded',
          message: 'Request rate exceeds the limit of the endpoint.',
          type: 'TooManyRequests',
        },
      };
    return {
      error: {
        code: 'InternalServiceError',
        message: `Internal error serving ${echo}`,
        type: 'InternalServerError',
      },
    };
  };

  const server = await startFake(route, failure, video);
  base = server.baseUrl;
  return { ...server, book, settings };
}
