/**
 * The operation table: every path of the service with its family, kind, accepted media types,
 * price key and schemas. Routes, validation, OpenAPI and the contract tests are derived from it.
 */
import { serp } from './serp.js';
import { clip } from './clip.js';
import { dance } from './dance.js';
import { maxi } from './maxi.js';
import { tuneAudios, tunePersonas, tuneVox } from './tune.js';
import { chatmodel, moon } from './chat.js';
import { qrart } from './qrart.js';
import { idcardCheck, idcardOcr } from './identity.js';
import { retrievalOperation } from './tasks.js';
import type { Operation } from './types.js';

export const OPERATIONS: readonly Operation[] = [
  serp,
  clip,
  dance,
  maxi,
  tuneAudios,
  tuneVox,
  tunePersonas,
  chatmodel,
  moon,
  qrart,
  idcardCheck,
  idcardOcr,
  retrievalOperation('tune'),
  retrievalOperation('clip'),
  retrievalOperation('dance'),
  retrievalOperation('maxi'),
];

export function operationAt(path: string): Operation | undefined {
  return OPERATIONS.find((o) => o.path === path);
}

/**
 * Where the tasks of a task operation are retrieved: the operation itself when one path serves
 * both (QR art), else its family's `/{family}/tasks`.
 */
export function retrievalPathOf(operation: Operation): string {
  if (operation.kindOf) return operation.path;
  const retrieval = OPERATIONS.find((o) => o.family === operation.family && o.kind === 'retrieval');
  if (!retrieval) throw new Error(`${operation.path} has no retrieval operation`);
  return retrieval.path;
}

/**
 * The result data inside a task's final response: the `data` of an envelope, or the members of a
 * task record's `response` besides `success` (QR art). The inverse of how a task answers.
 */
export function resultOf(operation: Operation, response: Record<string, unknown>): unknown {
  if (operation.answer !== 'record') return response.data;
  const { success: _success, ...result } = response;
  return result;
}
