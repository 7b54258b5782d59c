/**
 * What a task looks like to its watchers, per operation: the word its items use for the state
 * (DECISIONS section 3) and the envelope built from a task and its data. Waiting, streaming,
 * callbacks and retrieval all answer with these same snapshots.
 */
import type { TaskState } from './states.js';

export interface TaskView {
  id: string;
  traceId: string;
  operation: string;
  state: TaskState;
  createdAt: number;
  request: Record<string, unknown>;
  /** Engine data: the latest progress, or the result once succeeded. */
  data: unknown;
  error: { code: string; message: string } | null;
}

interface Word {
  field: 'state' | 'status';
  words: Record<TaskState, string>;
}

const MEDIA: Word = {
  field: 'state',
  words: {
    queued: 'pending',
    running: 'running',
    succeeded: 'succeeded',
    failed: 'failed',
    expired: 'failed',
  },
};
const DANCE: Word = {
  field: 'status',
  words: {
    queued: 'queued',
    running: 'running',
    succeeded: 'succeeded',
    failed: 'failed',
    expired: 'expired',
  },
};
const VOX: Word = {
  field: 'status',
  words: {
    queued: 'pending',
    running: 'processing',
    succeeded: 'complete',
    failed: 'failed',
    expired: 'failed',
  },
};

const WORDS: Record<string, Word> = {
  '/tune/audios': MEDIA,
  '/clip/videos': MEDIA,
  '/maxi/videos': MEDIA,
  '/dance/videos': DANCE,
  '/tune/vox': VOX,
};

/**
 * Before an engine reports anything, one item stands for the task, so that every snapshot
 * carries the state word where clients look for it.
 */
function taskItem(task: TaskView, word: Word): unknown {
  if (word === VOX) return { id: task.id };
  const model = typeof task.request.model === 'string' ? task.request.model : '';
  if (word === DANCE) {
    const seconds = Math.floor(task.createdAt / 1000);
    return [{ id: task.id, model, created_at: seconds, updated_at: seconds }];
  }
  return [{ id: task.id, model, created_at: new Date(task.createdAt).toISOString() }];
}

/** Puts the family's state word on each item (an item's own word, set by its engine, wins). */
function stamp(data: unknown, word: Word, state: TaskState): unknown {
  const value = word.words[state];
  if (Array.isArray(data)) {
    return data.map((item: unknown) =>
      typeof item === 'object' && item !== null ? { [word.field]: value, ...(item as object) } : item,
    );
  }
  return { ...((data as object | null) ?? {}), [word.field]: value };
}

const TERMINAL_FAILURE: ReadonlySet<TaskState> = new Set(['failed', 'expired']);

/** The envelope a watcher sees: `{success, task_id, trace_id, data}` (plus `error` on failure). */
export function snapshot(task: TaskView): Record<string, unknown> {
  if (task.operation === '/qrart/tasks') return qrSnapshot(task);
  const word = WORDS[task.operation] ?? MEDIA;
  const envelope: Record<string, unknown> = {
    success: !TERMINAL_FAILURE.has(task.state),
    task_id: task.id,
    trace_id: task.traceId,
    data: stamp(task.data ?? taskItem(task, word), word, task.state),
  };
  if (task.error) envelope.error = task.error;
  return envelope;
}

/**
 * A QR art task answers with the task itself (spec: "Artistic QR code task"): the request, and
 * once done the `response` with the image.
 */
function qrSnapshot(task: TaskView): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: task.id,
    _id: task.id,
    trace_id: task.traceId,
    state: task.state,
    request: { ...task.request, trace_id: task.traceId },
  };
  if (task.state === 'succeeded') record.response = { success: true, ...(task.data as object) };
  if (task.error) {
    record.response = { success: false };
    record.error = task.error;
  }
  return record;
}

/** What the `response` member of the task record keeps once the task is terminal. */
export function storedResponse(task: TaskView): Record<string, unknown> {
  const final = snapshot(task);
  return task.operation === '/qrart/tasks' ? (final.response as Record<string, unknown>) : final;
}

/** The engine data inside a stored response (the inverse of `storedResponse`). */
export function storedData(operation: string, stored: Record<string, unknown>): unknown {
  if (operation !== '/qrart/tasks') return stored.data;
  const { success: _success, ...data } = stored;
  return data;
}
