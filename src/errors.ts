/**
 * The one error type of the service. Every layer raises a `ServiceError`; the HTTP layer turns it
 * into the body and status of DECISIONS section 1. Anything else that escapes is a fault of ours
 * and becomes a generic 500.
 */
import type { Violation } from './contract/types.js';

export type ErrorCode =
  | 'bad_request'
  | 'no_token'
  | 'invalid_token'
  | 'token_expired'
  | 'token_mismatched'
  | 'used_up'
  | 'forbidden'
  | 'conflict'
  | 'no_api'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'api_error'
  | 'upstream_error'
  | 'busy'
  | 'timeout';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  no_token: 401,
  invalid_token: 401,
  token_expired: 401,
  token_mismatched: 403,
  used_up: 403,
  forbidden: 403,
  conflict: 409,
  no_api: 404,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  api_error: 500,
  upstream_error: 502,
  busy: 503,
  timeout: 504,
};

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(STATUS, code);
}

export interface ServiceErrorOptions {
  details?: Violation[];
  /** Seconds, sent as `Retry-After`. */
  retryAfter?: number;
  /** For 504: the task goes on and can be retrieved. */
  taskId?: string;
  /** Extra response headers (e.g. `Allow` for 405). */
  headers?: Record<string, string>;
  /** Details for the log under the trace id, never sent to the client. */
  internal?: string;
}

export class ServiceError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: ServiceErrorOptions = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = STATUS[code];
  }
}

/** The violations an answer lists at most: a body can break a rule many thousand times. */
const LISTED = 100;

/** A 400 listing every violation (the first LISTED); the message names each field and its rule. */
export function badRequest(violations: Violation[]): ServiceError {
  const listed = violations.slice(0, LISTED);
  const more = violations.length - listed.length;
  const message =
    listed.map((v) => `${v.field}: ${v.rule}`).join('; ') + (more > 0 ? `; and ${more} more` : '');
  return new ServiceError('bad_request', message, { details: listed });
}
