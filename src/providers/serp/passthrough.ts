/**
 * A search channel to an upstream that speaks this same interface (another Switchyard, or a
 * vendor offering `/serp/web`): the query goes up as it is, with the key as a bearer token. The
 * answer is checked against the contract before a client sees it, so that an upstream that
 * drifted fails over to the next channel instead of handing clients a broken result.
 */
import { SerpResponse } from '../../contract/serp.js';
import { checkSchema } from '../../contract/validate.js';
import { UpstreamFailure } from '../router.js';
import { jsonOf, postJson } from '../upstream.js';
import type { SerpBackend, SerpChannel, SerpQuery, SerpResult } from './types.js';

export class Passthrough implements SerpBackend {
  private readonly url: string;

  constructor(private readonly channel: SerpChannel) {
    this.url = `${(channel.base_url ?? '').replace(/\/+$/, '')}/serp/web`;
  }

  async search(query: SerpQuery, signal: AbortSignal): Promise<SerpResult> {
    const response = await postJson(this.channel, this.url, query, signal);
    const answer = await jsonOf(this.channel, response);
    const [first] = checkSchema(SerpResponse, answer);
    if (first !== undefined) {
      throw new UpstreamFailure(
        `${this.channel.name} answered outside the contract: ${first.field} ${first.rule}`,
      );
    }
    return answer as SerpResult;
  }
}
