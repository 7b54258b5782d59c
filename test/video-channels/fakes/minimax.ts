/**
 * MiniMax's Hailuo video API on loopback, after its documentation (platform.minimax.io/docs:
 * Video Generation, Query Video Generation Task, Retrieve File, Error Codes):
 * `POST /v1/video_generation` answers `{task_id, base_resp}`; `GET /v1/query/video_generation
 * ?task_id=` answers `status` Preparing / Queueing → Processing → Success with `file_id`,
 * `video_width`, `video_height`, or Fail; `GET /v1/files/retrieve?file_id=` answers
 * `file.download_url`. As MiniMax does, errors come with HTTP 200 and `base_resp.status_code`
 * other than 0: 1004 for a missing or wrong key, 2013 for invalid parameters, and whatever code
 * a test scripts (1002 rate limit, 1008 balance …). Scripted HTTP statuses come too.
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

const TEXT_MODELS = ['T2V-01', 'T2V-01-Director', 'MiniMax-Hailuo-02'];
const IMAGE_MODELS = ['I2V-01', 'I2V-01-Director', 'I2V-01-live'];
const FIELDS = [
  'model',
  'prompt',
  'prompt_optimizer',
  'first_frame_image',
  'duration',
  'resolution',
  'callback_url',
  'aigc_watermark',
];

/** The size of the test video every task hands out, as MiniMax reports a video's size. */
const WIDTH = 320;
const HEIGHT = 240;

export interface FakeMiniMax extends FakeServer {
  book: TaskBook;
  /** `base_resp` errors to answer the next requests with (HTTP 200), one each. */
  failNextWithCode(...codes: [number, string][]): void;
}

const minimax = (code: number, message: string, extra: Json = {}): Reply =>
  reply(200, { ...extra, base_resp: { status_code: code, status_msg: message } });

const invalid = (why: string) => minimax(2013, `invalid params, ${why}`, { task_id: '' });

function problem(body: Json): string | undefined {
  const unknown = Object.keys(body).find((field) => !FIELDS.includes(field));
  if (unknown !== undefined) return `${unknown} is not a parameter`;
  const model = String(body.model);
  if (!TEXT_MODELS.includes(model) && !IMAGE_MODELS.includes(model)) return `model ${model} is not supported`;
  if (typeof body.prompt !== 'string' || body.prompt.length > 2000)
    return 'prompt must be at most 2000 characters';
  if (body.prompt_optimizer !== undefined && typeof body.prompt_optimizer !== 'boolean')
    return 'prompt_optimizer must be a boolean';
  const image = body.first_frame_image;
  if (IMAGE_MODELS.includes(model) && (typeof image !== 'string' || image === ''))
    return `first_frame_image is required by ${model}`;
  if (model.startsWith('T2V') && image !== undefined) return `${model} takes no first_frame_image`;
  return undefined;
}

export async function startFakeMiniMax(video: Buffer, key: string): Promise<FakeMiniMax> {
  let counter = 106_916_112_212_000;
  const book = new TaskBook(() => String((counter += 1)));
  const codes: [number, string][] = [];
  let base = '';

  const query = (id: string): Reply => {
    const task = book.get(id);
    if (task === undefined) return invalid(`task ${id} not found`);
    const phase = book.poll(task);
    if (phase === 'failed') return minimax(1027, task.failure ?? '', { task_id: id, status: 'Fail' });
    const status =
      phase === 'queued'
        ? task.polls === 1
          ? 'Preparing'
          : 'Queueing'
        : phase === 'running'
          ? 'Processing'
          : 'Success';
    return minimax(0, 'success', {
      task_id: id,
      status,
      ...(phase === 'succeeded' ? { file_id: `${id}0`, video_width: WIDTH, video_height: HEIGHT } : {}),
    });
  };

  const file = (fileId: string): Reply => {
    const task = book.get(fileId.slice(0, -1));
    if (task === undefined || book.phase(task) !== 'succeeded') return invalid(`file ${fileId} not found`);
    return minimax(0, 'success', {
      file: {
        file_id: fileId,
        bytes: video.length,
        created_at: Math.floor(task.created / 1000),
        filename: 'output.mp4',
        purpose: 'video_generation',
        download_url: `${base}${VIDEO_PATH}${fileId}.mp4`,
      },
    });
  };

  const route = (request: Received): Reply => {
    const scripted = codes.shift();
    if (scripted !== undefined) return minimax(scripted[0], scripted[1]);
    if (request.authorization !== `Bearer ${key}`) {
      return minimax(
        1004,
        'login fail: Please carry the API secret key in the Authorization field of the request header',
      );
    }
    if (request.method === 'POST' && request.path === '/v1/video_generation') {
      const wrong = problem(request.body ?? {});
      if (wrong !== undefined) return invalid(wrong);
      return minimax(0, 'success', { task_id: book.create(request.body ?? {}).id });
    }
    if (request.method === 'GET' && request.path === '/v1/query/video_generation') {
      return query(request.query.get('task_id') ?? '');
    }
    if (request.method === 'GET' && request.path === '/v1/files/retrieve') {
      return file(request.query.get('file_id') ?? '');
    }
    return reply(404, { base_resp: { status_code: 404, status_msg: 'not found' } });
  };

  // A careless upstream: its refusals repeat the authorization they were given.
  const failure = (status: number, request: Received) => ({
    base_resp: {
      status_code: status === 429 ? 1002 : 1000,
      status_msg: `refused ${request.authorization ?? ''}`,
    },
  });

  const server = await startFake(route, failure, video);
  base = server.baseUrl;
  return {
    ...server,
    book,
    failNextWithCode: (...scripted) => codes.push(...scripted),
    settle: async () => {
      await server.settle();
      codes.length = 0;
    },
  };
}
