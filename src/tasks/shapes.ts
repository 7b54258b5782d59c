/**
 * What a task looks like to its watchers, per operation: the word its items use for the state
 * (DECISIONS section 3), how far it is, the envelope built from a task and its data, and the task
 * record. Waiting, streaming, callbacks and retrieval all answer with these same shapes.
 */
import { OPERATIONS, operationAt, resultOf } from '../contract/table.js';
import { MEDIA_SNAPSHOT } from '../contract/responses.js';
import type { TaskSnapshot } from '../contract/types.js';
import { isTerminal, type TaskState } from './states.js';

/** How far a task is, from 0 (queued) to 1 (succeeded), and the work it is doing. */
export interface Progress {
  fraction: number;
  stage: string;
}

export interface TaskView {
  id: string;
  traceId: string;
  operation: string;
  state: TaskState;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  request: Record<string, unknown>;
  /** Engine data: the latest partial data, or the result once succeeded. */
  data: unknown;
  /** The engine's latest report of how far it is; null before the first. */
  progress: Progress | null;
  error: { code: string; message: string } | null;
}

/**
 * The state words of each long task (music and video), read from the operation table: their
 * envelopes carry items and their watchers see progress.
 */
const WORDS: ReadonlyMap<string, TaskSnapshot> = new Map(
  OPERATIONS.flatMap((o) => (o.snapshot ? [[o.path, o.snapshot] as const] : [])),
);

/** The tasks that answer with their task record (QR art) rather than a data envelope. */
const RECORDS: ReadonlySet<string> = new Set(
  OPERATIONS.filter((o) => o.answer === 'record').map((o) => o.path),
);

/**
 * Before an engine reports anything, one item stands for the task, so that every snapshot
 * carries the state word where clients look for it.
 */
function taskItem(task: TaskView, word: TaskSnapshot): unknown {
  if (word.standIn === 'result') return { id: task.id };
  const model = typeof task.request.model === 'string' ? task.request.model : '';
  if (word.standIn === 'dance') {
    const seconds = Math.floor(task.createdAt / 1000);
    return [{ id: task.id, model, created_at: seconds, updated_at: seconds }];
  }
  return [{ id: task.id, model, created_at: new Date(task.createdAt).toISOString() }];
}

/** Puts the family's state word on each item (an item's own word, set by its engine, wins). */
function stamp(data: unknown, word: TaskSnapshot, state: TaskState): unknown {
  const value = word.words[state];
  if (Array.isArray(data)) {
    return data.map((item: unknown) =>
      typeof item === 'object' && item !== null ? { [word.field]: value, ...(item as object) } : item,
    );
  }
  return { ...((data as object | null) ?? {}), [word.field]: value };
}

const failed = (task: TaskView) => task.state === 'failed' || task.state === 'expired';

/**
 * How far the task is: 0 while queued, the engine's latest report while running, 1 once
 * succeeded; a failed task keeps how far it got, its stage saying how it ended.
 */
export function progressOf(task: TaskView): Progress {
  if (task.state === 'queued') return { fraction: 0, stage: 'queued' };
  if (task.state === 'succeeded') return { fraction: 1, stage: 'done' };
  const fraction = task.progress?.fraction ?? 0;
  if (task.state === 'running') return { fraction, stage: task.progress?.stage ?? 'start' };
  return { fraction, stage: task.state };
}

/** The `progress` member, where the operation has one. */
function progressMember(task: TaskView): { progress?: Progress } {
  return WORDS.has(task.operation) ? { progress: progressOf(task) } : {};
}

const seconds = (ms: number | null) => (ms === null ? null : Math.floor(ms / 1000));

/**
 * The task record (DECISIONS section 3): what retrieval answers (with the state of its callback),
 * and what a QR art task answers itself. A QR task's request echoes its `trace_id`, and a failed
 * one carries its `error` (its `response` is only `{success: false}`); the long tasks say how far
 * they are.
 */
export function taskRecord(task: TaskView): Record<string, unknown> {
  const qr = RECORDS.has(task.operation);
  const record: Record<string, unknown> = {
    id: task.id,
    _id: task.id,
    trace_id: task.traceId,
    request: qr ? { ...task.request, trace_id: task.traceId } : task.request,
  };
  if (isTerminal(task.state)) record.response = storedResponse(task);
  Object.assign(record, {
    state: task.state,
    created_at: seconds(task.createdAt),
    started_at: seconds(task.startedAt),
    finished_at: seconds(task.finishedAt),
    elapsed: task.finishedAt === null ? null : (task.finishedAt - task.createdAt) / 1000,
  });
  if (qr && task.error) record.error = task.error;
  return Object.assign(record, progressMember(task));
}

/**
 * The envelope a finished task answers with: the same body whether it is waited for, called back
 * or kept as the record's `response`. Success is `{success, task_id, trace_id, data}` (a QR task:
 * its task record with `success` and `task_id`); failure is only
 * `{success: false, task_id, trace_id, error}`.
 */
export function finalEnvelope(task: TaskView): Record<string, unknown> {
  if (failed(task)) {
    return { success: false, task_id: task.id, trace_id: task.traceId, error: task.error };
  }
  if (RECORDS.has(task.operation)) return { success: true, task_id: task.id, ...taskRecord(task) };
  return dataEnvelope(task);
}

function dataEnvelope(task: TaskView): Record<string, unknown> {
  const word = WORDS.get(task.operation) ?? MEDIA_SNAPSHOT;
  return {
    success: true,
    task_id: task.id,
    trace_id: task.traceId,
    data: stamp(task.data ?? taskItem(task, word), word, task.state),
  };
}

/**
 * What a watcher sees at any moment (an ndjson line): the envelope so far, the final one once
 * terminal, with how far the task is.
 */
export function snapshot(task: TaskView): Record<string, unknown> {
  if (isTerminal(task.state)) return { ...finalEnvelope(task), ...progressMember(task) };
  if (RECORDS.has(task.operation)) return taskRecord(task);
  return { ...dataEnvelope(task), ...progressMember(task) };
}

/** What the `response` member of the task record keeps once the task is terminal. */
export function storedResponse(task: TaskView): Record<string, unknown> {
  if (!RECORDS.has(task.operation)) return finalEnvelope(task);
  return failed(task) ? { success: false } : { success: true, ...(task.data as object) };
}

/** The engine data inside a stored response (the inverse of `storedResponse`). */
export function storedData(operation: string, stored: Record<string, unknown>): unknown {
  const known = operationAt(operation);
  return known ? resultOf(known, stored) : stored.data;
}
