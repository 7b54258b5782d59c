/**
 * The providers of each capability family. A family is served by its local engine or by upstream
 * channels; a family with neither answers 503 `busy`, saying so, rather than inventing a result.
 */
import type { Family, MediaType, Operation } from '../contract/types.js';
import type { Token } from '../accounts/tokens.js';
import { ServiceError } from '../errors.js';

/** One validated request handed to a capability. */
export interface Call {
  operation: Operation;
  body: Record<string, unknown>;
  token: Token;
  traceId: string;
  accept: MediaType;
  /** Aborted when the client goes away (sync calls may stop early; tasks go on). */
  signal: AbortSignal;
}

export interface Capability {
  /** Answers the response body of the operation. */
  handle(call: Call): Promise<unknown>;
}

export class Providers {
  constructor(private readonly capabilities: Partial<Record<Family, Capability>> = {}) {}

  for(operation: Operation): Capability {
    const capability = this.capabilities[operation.family];
    if (!capability) {
      throw new ServiceError(
        'busy',
        `no engine or channel serves ${operation.path} on this server; configure a channel for ` +
          `"${operation.family}" or enable its local engine`,
      );
    }
    return capability;
  }
}
