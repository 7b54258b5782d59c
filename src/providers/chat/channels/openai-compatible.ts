/**
 * A chat channel to any upstream speaking OpenAI chat completions. The requested model is renamed
 * on the way up (`model_map`) and back on the way down, so clients only ever see the name they
 * asked for. Streams always ask the upstream for usage, so that tokens can be charged.
 */
import { UpstreamFailure } from '../../router.js';
import { jsonOf, postJson, type UpstreamAnswer } from '../../upstream.js';
import { sseData } from './sse.js';
import { receivedAs } from '../../index.js';
import type { StopSignal } from '../../stop-signal.js';
import type { ChatBackend, ChatCompletion, ChatCompletionChunk, ChatRequest } from '../types.js';

export interface OpenAiChannel {
  name: string;
  base_url?: string;
  api_key?: string;
  model_map: Record<string, string>;
  timeout_seconds: number;
}

export class OpenAiCompatible implements ChatBackend {
  private readonly url: string;

  constructor(private readonly channel: OpenAiChannel) {
    this.url = `${(channel.base_url ?? '').replace(/\/+$/, '')}/chat/completions`;
  }

  /** `body` as the upstream gets it: its model renamed, and `changes` on top; the client's own stays as sent. */
  private send(
    body: ChatRequest,
    changes: Partial<ChatRequest>,
    signal: StopSignal,
  ): Promise<UpstreamAnswer> {
    const model = this.channel.model_map[body.model] ?? body.model;
    return postJson(this.channel, this.url, { ...body, ...changes, model }, signal);
  }

  async complete(body: ChatRequest, signal: StopSignal): Promise<ChatCompletion> {
    const response = await this.send(body, { stream: false }, signal);
    const completion = (await jsonOf(this.channel, response)) as ChatCompletion | null;
    if (typeof completion !== 'object' || completion === null || Array.isArray(completion))
      throw new UpstreamFailure(`${this.channel.name} answered JSON that is not a chat completion`);
    // Parsed for this request alone: renamed in place rather than copied.
    completion.model = body.model;
    return completion;
  }

  async *stream(body: ChatRequest, signal: StopSignal): AsyncGenerator<ChatCompletionChunk> {
    const response = await this.send(
      body,
      { stream: true, stream_options: { ...(body.stream_options ?? {}), include_usage: true } },
      signal,
    );
    let done = false;
    try {
      for await (const events of sseData(response.body)) {
        for (const data of events) {
          // Read on to the body's end: leaving early would abort the connection, lost to the pool.
          if (done || (done = data === '[DONE]')) continue;
          const chunk = JSON.parse(data) as ChatCompletionChunk & { error?: { message?: string } };
          if (chunk.error)
            throw new UpstreamFailure(
              `${this.channel.name} failed mid-stream: ${chunk.error.message ?? 'error'}`,
            );
          // Under the client's name already: passed on as the upstream wrote it. Otherwise parsed
          // for this request alone, and renamed in place rather than copied.
          if (chunk.model === body.model) yield receivedAs(chunk, data);
          else {
            chunk.model = body.model;
            yield chunk;
          }
        }
      }
    } catch (error) {
      if (error instanceof UpstreamFailure) throw error;
      throw new UpstreamFailure(`${this.channel.name} stream broke (${(error as Error).message})`);
    } finally {
      // A reader that stopped early (the client left) must not leave the upstream generating.
      if (!done) response.body.destroy();
    }
    if (!done) throw new UpstreamFailure(`${this.channel.name} ended the stream without [DONE]`);
  }
}
