/**
 * The vocabulary of the contract: what an operation is, and what a broken rule looks like.
 * The operation table (`table.ts`) is a list of `Operation`s; routes, validation, pricing,
 * OpenAPI and the contract tests are all derived from it.
 */
import type { TSchema } from '@sinclair/typebox';

/** One broken rule: `field` is a JSON path such as `content[0].text`; `rule` says what it must be. */
export interface Violation {
  field: string;
  rule: string;
}

export type Family = 'serp' | 'clip' | 'dance' | 'maxi' | 'tune' | 'chat' | 'qrart' | 'identity';

/**
 * sync: the answer is computed while the client waits (search, chat, identity).
 * task: a generation that becomes a durable task (video, music, QR art).
 * retrieval: reads tasks that already exist.
 */
export type OperationKind = 'sync' | 'task' | 'retrieval';

/** The states of a task (`tasks/states.ts`), as far as the contract names them. */
export type TaskStateName = 'queued' | 'running' | 'succeeded' | 'failed' | 'expired';

/**
 * How a task operation's snapshots say its state (DECISIONS section 3): the item field that
 * carries it, the word for each task state, and what stands for the task before its engine
 * reports anything: `media` a list of one item with an ISO `created_at`, `dance` a list of one
 * item with unix-second `created_at` and `updated_at`, `result` the result object with its `id`.
 */
export interface TaskSnapshot {
  field: 'state' | 'status';
  words: Readonly<Record<TaskStateName, string>>;
  standIn: 'media' | 'dance' | 'result';
}

export type MediaType = 'application/json' | 'application/x-ndjson' | 'text/event-stream';

/** A rule between fields, run after the schema; it receives the body with schema defaults applied. */
export type Rule = (body: Record<string, unknown>) => Violation[];

export interface Operation {
  path: string;
  family: Family;
  kind: OperationKind;
  summary: string;
  /** Accept values the operation can answer with; the first is the default. */
  accept: readonly MediaType[];
  /** Key into the configured price table; the model and action of the body refine it. */
  priceKey: string;
  request: TSchema;
  rules: readonly Rule[];
  response: TSchema;
  /** The state words of a music or video task's snapshots; those tasks also report progress. */
  snapshot?: TaskSnapshot;
  /**
   * A task that answers with its task record (QR art: the spec's "Artistic QR code task") rather
   * than the data envelope `{success, task_id, trace_id, data}` of the other tasks.
   */
  answer?: 'record';
  /**
   * Where one path serves several kinds (`/qrart/tasks`: generate is a task, retrieve is a
   * retrieval), the kind of a given body.
   */
  kindOf?: (body: Record<string, unknown>) => OperationKind;
  /**
   * Whether the answer to `body` will stream, told before it is served: a streamed answer's cost
   * is known only at its end, so its credits are held first, and knowing early lets that hold be
   * written while the work starts rather than after.
   */
  streams?: (body: Record<string, unknown>, accept: MediaType) => boolean;
}
