/**
 * Chat completions on both families: the request goes to the channels that serve its model, in
 * routing order. A stream is retried and falls back like any request until its first chunk has
 * arrived; after that a failure ends the stream with an error event. The usage that streams
 * always report is kept for charging, and sent on only when the client asked for it.
 */
import { EventStream, type Call, type Capability, type TokenUsage } from '../index.js';
import { UpstreamFailure, type Caller, type ChannelRouter, type RoutedChannel } from '../router.js';
import { ServiceError } from '../../errors.js';
import type { ChatBackend, ChatCompletionChunk, ChatRequest } from './types.js';

async function* relay(
  first: IteratorResult<ChatCompletionChunk>,
  rest: AsyncIterator<ChatCompletionChunk>,
  includeUsage: boolean,
  keep: (usage: TokenUsage) => void,
): AsyncGenerator<ChatCompletionChunk> {
  try {
    for (let next = first; !next.done; next = await rest.next()) {
      const value = next.value;
      const usage = value.usage;
      if (usage) keep(usage as TokenUsage);
      if (includeUsage && usage) yield value;
      else if (value.choices.length === 0) continue;
      // The usage member (the upstream sends it because we ask) leaves unless the client asked.
      else if (usage === undefined) yield value;
      else yield withoutUsage(value);
    }
  } catch (error) {
    if (error instanceof UpstreamFailure) throw new ServiceError('upstream_error', error.message);
    throw error;
  } finally {
    // Stopped early (the client left): let the backend release its stream.
    await rest.return?.();
  }
}

function withoutUsage(chunk: ChatCompletionChunk): ChatCompletionChunk {
  const { usage: _usage, ...rest } = chunk;
  return rest as ChatCompletionChunk;
}

export class ChatCapability implements Capability {
  constructor(
    private readonly router: ChannelRouter<RoutedChannel>,
    private readonly backends: ReadonlyMap<string, ChatBackend>,
  ) {}

  private backend(channel: RoutedChannel): ChatBackend {
    const backend = this.backends.get(channel.name);
    if (!backend) throw new Error(`channel ${channel.name} has no backend`);
    return backend;
  }

  async close(): Promise<void> {
    await Promise.all([...this.backends.values()].map((backend) => backend.close?.()));
  }

  /** One completion for the service's own use (lyrics), routed like a client's, for `caller`. */
  complete(request: ChatRequest, caller: Caller): Promise<unknown> {
    return this.router.run('chat', request.model, caller, (channel) =>
      this.backend(channel).complete(request, caller.signal),
    );
  }

  async handle(call: Call): Promise<unknown> {
    const request = call.body as ChatRequest;
    const caller = { token: call.token.id, signal: call.signal };
    if (!request.stream) {
      return this.router.run('chat', request.model, caller, (channel) =>
        this.backend(channel).complete(request, call.signal),
      );
    }
    const opened = await this.router.run('chat', request.model, caller, async (channel) => {
      const chunks = this.backend(channel).stream(request, call.signal)[Symbol.asyncIterator]();
      return { chunks, first: await chunks.next() };
    });
    let usage: TokenUsage | undefined;
    const includeUsage = request.stream_options?.include_usage === true;
    return new EventStream(
      relay(opened.first, opened.chunks, includeUsage, (u) => (usage = u)),
      () => usage,
    );
  }
}
