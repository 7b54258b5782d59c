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
