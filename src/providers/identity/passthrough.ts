/**
 * An identity channel to an external service that speaks these same two operations (another
 * Switchyard, or a vendor of the same interface): the request goes up in plain text (the client's
 * encryption is ours to open) with the channel's key as a bearer token, and the answer is checked
 * against the contract (and must carry its `result` code) before a client sees it.
 */
import type { TSchema } from '@sinclair/typebox';
import { checkSchema } from '../../contract/validate.js';
import { UpstreamFailure } from '../router.js';
import { jsonOf, postJson, type UpstreamChannel } from '../upstream.js';

export class IdentityPassthrough {
  private readonly base: string;

  constructor(private readonly channel: UpstreamChannel & { base_url?: string }) {
    this.base = (channel.base_url ?? '').replace(/\/+$/, '');
  }

  async call(
    path: string,
    body: Record<string, unknown>,
    response: TSchema,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const answer = await jsonOf(
      this.channel,
      await postJson(this.channel, `${this.base}${path}`, body, signal),
    );
    const [first] = checkSchema(response, answer);
    const fault = first
      ? `${first.field} ${first.rule}`
      : typeof (answer as { result?: unknown } | null)?.result !== 'string'
        ? 'no result code'
        : undefined;
    if (fault) throw new UpstreamFailure(`${this.channel.name} answered outside the contract: ${fault}`);
    return answer as Record<string, unknown>;
  }
}
