/**
 * Web search: the request goes to the search channels serving its `type`, in routing order, with
 * the retries and fallback of every channel (see router.ts). Each token is its own scope, so its
 * past queries suggest related searches to it alone.
 */
import type { Call, Capability } from '../index.js';
import type { ChannelRouter, RoutedChannel } from '../router.js';
import type { SearchType, SerpBackend, SerpQuery } from './types.js';

export class SerpCapability implements Capability {
  constructor(
    private readonly router: ChannelRouter<RoutedChannel>,
    private readonly backends: ReadonlyMap<string, SerpBackend>,
  ) {}

  async handle(call: Call): Promise<unknown> {
    const body = call.body;
    // The schema applied every default; only case is left to settle.
    const query: SerpQuery = {
      query: String(body.query),
      type: body.type as SearchType,
      page: Number(body.page),
      number: Number(body.number),
      ...(typeof body.range === 'string' ? { range: body.range } : {}),
      country: String(body.country).toUpperCase(),
      language: String(body.language),
    };
    const caller = { token: call.token.id, signal: call.signal };
    return this.router.run('serp', query.type, caller, (channel) => {
      const backend = this.backends.get(channel.name);
      if (!backend) throw new Error(`channel ${channel.name} has no backend`);
      return backend.search(query, call.signal, call.token.id);
    });
  }

  async close(): Promise<void> {
    // Channels may share one backend (the local index): close each once.
    await Promise.all([...new Set(this.backends.values())].map((backend) => backend.close?.()));
  }
}
