/**
 * A search channel to an upstream that speaks this same interface (another Switchyard, or a
 * vendor offering `/serp/web`), on the shared passthrough: the query goes up as it is, and the
 * answer is checked against the contract before a client sees it.
 */
import { SerpResponse } from '../../../contract/serp.js';
import { SameInterface, type PassthroughChannel } from '../../channels/passthrough.js';
import type { SerpBackend, SerpQuery, SerpResult } from '../types.js';
import type { StopSignal } from '../../stop-signal.js';

export class Passthrough implements SerpBackend {
  private readonly upstream: SameInterface;

  constructor(channel: PassthroughChannel) {
    this.upstream = new SameInterface(channel);
  }

  async search(query: SerpQuery, signal: StopSignal): Promise<SerpResult> {
    return (await this.upstream.call('/serp/web', query, SerpResponse, signal)) as unknown as SerpResult;
  }
}
