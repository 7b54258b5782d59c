/**
 * The task retrieval endpoints (`/tune/tasks`, `/clip/tasks`, `/dance/tasks`, `/maxi/tasks`):
 * one record by id, several by ids, or a page of the token's own tasks.
 */
import { Type, Closed, StringEnum, TaskId } from './schema.js';
import { allowedOnlyWhen, ordered, requiredWhen, type Body } from './rules.js';
import { TaskRetrieval } from './responses.js';
import type { Family, Operation, Rule } from './types.js';

export const MAX_BATCH = 500;

/** The members every retrieval endpoint takes; `/qrart/tasks` adds its generation members. */
export const retrievalMembers = {
  id: Type.Optional(TaskId('Task id, with action retrieve')),
  ids: Type.Optional(
    Type.Array(TaskId(), {
      minItems: 1,
      maxItems: MAX_BATCH,
      description: 'Task ids, with action retrieve_batch',
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_BATCH, description: 'Page size when listing (default 50)' }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, description: 'Page offset when listing' })),
  created_at_min: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Listing: created at or after (unix s)' }),
  ),
  created_at_max: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Listing: created at or before (unix s)' }),
  ),
};

const isRetrieve = (b: Body) => b.action === 'retrieve';
const isBatch = (b: Body) => b.action === 'retrieve_batch';
const isListing = (b: Body) => isBatch(b) && b.ids === undefined;

/** Rules that hold wherever the retrieval members are used. */
export const retrievalRules: readonly Rule[] = [
  requiredWhen('id', isRetrieve, 'action is retrieve'),
  allowedOnlyWhen('id', isRetrieve, 'action is retrieve'),
  allowedOnlyWhen('ids', isBatch, 'action is retrieve_batch'),
  ...(['limit', 'offset', 'created_at_min', 'created_at_max'] as const).map((f) =>
    allowedOnlyWhen(f, isListing, 'action is retrieve_batch without ids (listing)'),
  ),
  ordered('created_at_min', 'created_at_max'),
];

export function retrievalOperation(family: Family): Operation {
  return {
    path: `/${family}/tasks`,
    family,
    kind: 'retrieval',
    summary: `Retrieve ${family} tasks: one by id, several by ids, or a page of your own`,
    accept: ['application/json'],
    priceKey: 'tasks.retrieve',
    request: Closed({
      action: StringEnum(['retrieve', 'retrieve_batch'] as const),
      ...retrievalMembers,
    }),
    rules: retrievalRules,
    response: TaskRetrieval,
  };
}
