/**
 * An identity channel to an external service that speaks these same two operations (another
 * Switchyard, or a vendor of the same interface), on the shared passthrough: the request goes up
 * in plain text (the client's encryption is ours to open), and the answer must fit the contract
 * and carry its `result` code before a client sees it.
 */
import type { TSchema } from '@sinclair/typebox';
import { UpstreamFailure } from '../../router.js';
import { SameInterface, type PassthroughChannel } from '../../channels/passthrough.js';
import type { StopSignal } from '../../stop-signal.js';

export class IdentityPassthrough {
  private readonly upstream: SameInterface;

  constructor(private readonly channel: PassthroughChannel) {
    this.upstream = new SameInterface(channel);
  }

  async call(
    path: string,
    body: Record<string, unknown>,
    response: TSchema,
    signal: StopSignal,
  ): Promise<Record<string, unknown>> {
    const answer = await this.upstream.call(path, body, response, signal);
    if (typeof answer.result !== 'string') {
      throw new UpstreamFailure(`${this.channel.name} answered outside the contract: no result code`);
    }
    return answer;
  }
}
