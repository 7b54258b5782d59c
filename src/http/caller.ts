/**
 * Who is calling which operation, as the gates in operations.ts found out: what the handler of a
 * synchronous operation and the submission of a task both read, and what the usage record keeps.
 */
import type { MediaType, Operation } from '../contract/types.js';
import type { Token } from '../accounts/tokens.js';
import type { Meter } from '../accounts/metering.js';

/** What the gates learned about a request, for the handler and the usage record. */
export interface Caller {
  operation: Operation;
  token: Token;
  accept: MediaType;
  /** The charge of a synchronous request; a task's own row gets its credits from the task. */
  meter?: Meter;
  /** The task the request created, for its usage row. */
  taskId?: string;
  /** The `error.code` the request was answered with, for its usage row. */
  errorCode?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}
