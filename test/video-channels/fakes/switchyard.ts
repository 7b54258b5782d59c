/**
 * This service's own video interface on loopback, for the passthrough channel: `POST
 * /{family}/videos` validated against our contract (400 with details when it breaks it), taken
 * asynchronously (`{success, task_id, trace_id}` at once), and `POST /{family}/tasks` with
 * `{"action": "retrieve", "id"}` answering the task record of DECISIONS 3, whose `response` is
 * the family's final envelope once the task is terminal. Every record it answers is checked
 * against our contract first, so the channel is tested against the interface, not a guess of it.
 * It takes only asynchronous submissions: a synchronous one would mean the channel waits on an
 * open request instead of polling.
 */
import { randomUUID } from 'node:crypto';
import { TaskRecord } from '../../../src/contract/responses.js';
import { operationAt } from '../../../src/contract/table.js';
import { checkSchema, validateRequest } from '../../../src/contract/validate.js';
import {
  reply,
  startFake,
  TaskBook,
  VIDEO_PATH,
  type FakeServer,
  type Json,
  type Phase,
  type Received,
  type Reply,
  type Task,
} from './server.js';

const FAMILIES = ['clip', 'dance', 'maxi'];
const STATE: Record<Phase, string> = {
  queued: 'queued',
  running: 'running',
  succeeded: 'succeeded',
  failed: 'failed',
};

export interface FakeSwitchyard extends FakeServer {
  book: TaskBook;
}

const problem = (status: number, code: string, message: string, extra: Json = {}): Reply =>
  reply(status, { success: false, error: { code, message, ...extra }, trace_id: randomUUID() });

/** The family's result item, as our engines make it. */
function itemOf(family: string, task: Task, base: string, phase: Phase): Json {
  const input = task.input;
  const video = `${base}${VIDEO_PATH}${task.id}.mp4`;
  const model = String(input.model ?? 'clip-v1');
  if (family === 'dance') {
    const seconds = Math.floor(task.created / 1000);
    return {
      id: `${task.id}-0`,
      model,
      status: phase,
      created_at: seconds,
      updated_at: seconds,
      ...(phase === 'succeeded'
        ? {
            content: {
              video_url: video,
              ...(input.return_last_frame === true
                ? { last_frame_url: `${base}${VIDEO_PATH}${task.id}.png` }
                : {}),
            },
            seed: 77,
            resolution: input.resolution,
            ratio: input.ratio,
            duration: input.duration ?? 5,
            framespersecond: 24,
            usage: { completion_tokens: 4000, total_tokens: 4000 },
          }
        : {}),
    };
  }
  return {
    id: `${task.id}-0`,
    model,
    state: phase,
    created_at: new Date(task.created).toISOString(),
    ...(phase === 'succeeded'
      ? { video_url: video, image_url: `${base}${VIDEO_PATH}${task.id}.jpg`, duration: input.duration ?? 5 }
      : {}),
  };
}

export async function startFakeSwitchyard(video: Buffer, key: string): Promise<FakeSwitchyard> {
  const book = new TaskBook();
  const families = new Map<string, string>();
  let base = '';

  const record = (family: string, id: unknown): Reply => {
    const task = typeof id === 'string' ? book.get(id) : undefined;
    if (task === undefined || families.get(task.id) !== family)
      return problem(404, 'not_found', 'no such task');
    const phase = book.poll(task);
    const terminal = phase === 'succeeded' || phase === 'failed';
    const created = Math.floor(task.created / 1000);
    const now = Math.floor(Date.now() / 1000);
    const answer: Json = {
      id: task.id,
      _id: task.id,
      trace_id: task.id,
      request: task.input,
      state: STATE[phase],
      created_at: created,
      started_at: phase === 'queued' ? null : created,
      finished_at: terminal ? now : null,
      elapsed: terminal ? now - created : null,
    };
    if (terminal) {
      answer.response = {
        success: phase === 'succeeded',
        task_id: task.id,
        trace_id: task.id,
        data: [itemOf(family, task, base, phase)],
        ...(phase === 'failed' ? { error: { code: 'upstream_error', message: task.failure } } : {}),
      };
    }
    const off = [
      ...checkSchema(TaskRecord, answer),
      ...(terminal ? checkSchema(operationAt(`/${family}/videos`)!.response, answer.response) : []),
    ];
    if (off.length > 0)
      return problem(500, 'api_error', `the fake broke its contract: ${JSON.stringify(off)}`);
    return reply(200, answer);
  };

  const route = (request: Received): Reply => {
    if (request.authorization === undefined) return problem(401, 'no_token', 'a bearer token is required');
    if (request.authorization !== `Bearer ${key}`)
      return problem(401, 'invalid_token', 'the token is not known');
    const [, family = '', kind = ''] = request.path.split('/');
    if (request.method !== 'POST' || !FAMILIES.includes(family)) return problem(404, 'no_api', 'no such API');
    const body = request.body ?? {};
    if (kind === 'tasks') {
      return body.action === 'retrieve'
        ? record(family, body.id)
        : problem(400, 'bad_request', 'action: must be retrieve', {
            details: [{ field: 'action', rule: 'must be retrieve' }],
          });
    }
    if (kind !== 'videos') return problem(404, 'no_api', 'no such API');
    const { violations } = validateRequest(operationAt(`/${family}/videos`)!, body);
    if (violations.length > 0) {
      const message = violations.map((v) => `${v.field}: ${v.rule}`).join('; ');
      return problem(400, 'bad_request', message, { details: violations });
    }
    if (body.async !== true)
      return problem(400, 'bad_request', 'async: this upstream takes asynchronous tasks only');
    const task = book.create(body);
    families.set(task.id, family);
    return reply(200, { success: true, task_id: task.id, trace_id: task.id });
  };

  // A careless upstream: its refusals repeat the bearer token they were given.
  const failure = (status: number, request: Received) => ({
    success: false,
    error: {
      code: status === 429 ? 'too_many_requests' : 'api_error',
      message: `refused ${request.authorization ?? 'anonymous'}`,
    },
    trace_id: randomUUID(),
  });

  const server = await startFake(route, failure, video);
  base = server.baseUrl;
  return { ...server, book };
}
