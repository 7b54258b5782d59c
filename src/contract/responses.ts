/**
 * Response shapes shared by several families: the error body, the generation envelope, the
 * immediate answer of an asynchronous submission, and the task record of the retrieval endpoints.
 */
import { Type, StringEnum, TaskId, type TSchema } from './schema.js';
import type { TaskSnapshot } from './types.js';

export const ErrorCode = StringEnum([
  'bad_request',
  'no_token',
  'invalid_token',
  'token_expired',
  'token_mismatched',
  'used_up',
  'forbidden',
  'conflict',
  'no_api',
  'not_found',
  'method_not_allowed',
  'not_acceptable',
  'payload_too_large',
  'unsupported_media_type',
  'too_many_requests',
  'api_error',
  'upstream_error',
  'busy',
  'timeout',
] as const);

export const ErrorBody = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: ErrorCode,
      message: Type.String(),
      details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), rule: Type.String() }))),
    }),
    trace_id: Type.String(),
    task_id: Type.Optional(Type.String()),
  },
  { $id: 'Error' },
);

const Uuid = TaskId();

/** The "Music item" of the spec, also used by /clip/videos and /maxi/videos results. */
export const MediaItem = Type.Object({
  id: Type.String(),
  lyric: Type.Optional(Type.String()),
  model: Type.String(),
  state: Type.Optional(StringEnum(['pending', 'running', 'succeeded', 'failed'] as const)),
  style: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  prompt: Type.Optional(Type.String()),
  duration: Type.Optional(Type.Number()),
  audio_url: Type.Optional(Type.String()),
  image_url: Type.Optional(Type.String()),
  video_url: Type.Optional(Type.String()),
  created_at: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
});

/** The state words of music and video items (`/tune/audios`, `/clip/videos`, `/maxi/videos`). */
export const MEDIA_SNAPSHOT: TaskSnapshot = {
  field: 'state',
  words: {
    queued: 'pending',
    running: 'running',
    succeeded: 'succeeded',
    failed: 'failed',
    expired: 'failed',
  },
  standIn: 'media',
};

/** How far a music or video task is; never goes back. */
export const TaskProgress = Type.Object({
  fraction: Type.Number({ minimum: 0, maximum: 1, description: '0 while queued, 1 once succeeded' }),
  stage: Type.String({
    description:
      'the work under way: queued, start, read, write, compose, sing, mix, separate, encode, render, ' +
      'upload, …; done once succeeded, failed or expired at the end',
  }),
});

/**
 * The final envelope of a generation: `{success, task_id, trace_id, data}`; each ndjson line of
 * a music or video task also says how far it is (`progress`).
 */
export function Envelope(data: TSchema) {
  return Type.Object({
    success: Type.Boolean(),
    task_id: Type.Optional(Uuid),
    trace_id: Type.Optional(Uuid),
    data: Type.Optional(data),
    progress: Type.Optional(TaskProgress),
  });
}

/** The immediate answer to a submission with `callback_url` or `async`. */
export const TaskAccepted = Type.Object({
  success: Type.Literal(true),
  task_id: Uuid,
  trace_id: Uuid,
});

export const TaskState = StringEnum([
  'queued',
  'running',
  'succeeded',
  'failed',
  'expired',
  'canceled',
] as const);

export const TaskRecord = Type.Object({
  id: Uuid,
  _id: Type.String(),
  trace_id: Uuid,
  request: Type.Record(Type.String(), Type.Unknown()),
  response: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  state: TaskState,
  created_at: Type.Integer({ description: 'unix seconds' }),
  started_at: Type.Union([Type.Integer(), Type.Null()]),
  finished_at: Type.Union([Type.Integer(), Type.Null()]),
  elapsed: Type.Union([Type.Number(), Type.Null()], { description: 'seconds from creation to the end' }),
  progress: Type.Optional(TaskProgress),
  callback: Type.Optional(
    Type.Object({
      url: Type.String(),
      state: Type.String(),
      attempts: Type.Integer(),
      last_status: Type.Union([Type.Integer(), Type.Null()]),
    }),
  ),
});

export const TaskBatch = Type.Object({
  items: Type.Array(TaskRecord),
  count: Type.Integer(),
});

/** A retrieval answers a record or a batch, depending on the action. */
export const TaskRetrieval = Type.Union([TaskRecord, TaskBatch]);
