/**
 * A chat channel to any upstream speaking OpenAI chat completions. The requested model is renamed
 * on the way up (`model_map`) and back on the way down, so clients only ever see the name they
 * asked for. Streams always ask the upstream for usage, so that tokens can be charged.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { UpstreamFailure } from '../router.js';
import { sseData } from './sse.js';
import { headerDeadline } from './deadline.js';
import type { ChatBackend, ChatCompletion, ChatCompletionChunk, ChatRequest } from './types.js';

export interface OpenAiChannel {
  name: string;
  base_url?: string;
  api_key?: string;
  model_map: Record<string, string>;
  timeout_seconds: number;
}

/** Below this, a channel's timeout is kept by our own timer rather than undici's. */
const PRECISE_BELOW_MS = 2000;

/** One pool of keep-alive connections for all upstream channels. */
const upstreams: Dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 256 });

async function failureOf(response: Dispatcher.ResponseData): Promise<UpstreamFailure> {
  const text = await response.body.text().catch(() => '');
  let message = text.slice(0, 300) || `HTTP ${response.statusCode}`;
  try {
    const parsed = JSON.parse(text) as { error?: { message?: string } | string };
    const error = parsed.error;
    if (typeof error === 'string') message = error;
    else if (error?.message) message = error.message;
  } catch {
    // Not JSON: the text itself says what went wrong.
  }
  return new UpstreamFailure(`${response.statusCode} ${message}`, response.statusCode);
}

export class OpenAiCompatible implements ChatBackend {
  private readonly url: string;

  constructor(private readonly channel: OpenAiChannel) {
    this.url = `${(channel.base_url ?? '').replace(/\/+$/, '')}/chat/completions`;
  }

  private async send(body: ChatRequest, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    const timeout = this.channel.timeout_seconds * 1000;
    // undici's own header timeout ticks by the second: exact enough for long limits, not short ones.
    const deadline = timeout < PRECISE_BELOW_MS ? headerDeadline(signal, timeout) : undefined;
    let response: Dispatcher.ResponseData;
    try {
      response = await request(this.url, {
        method: 'POST',
        dispatcher: upstreams,
        headers: {
          'content-type': 'application/json',
          ...(this.channel.api_key ? { authorization: `Bearer ${this.channel.api_key}` } : {}),
        },
        body: JSON.stringify({ ...body, model: this.channel.model_map[body.model] ?? body.model }),
        signal: deadline?.signal ?? signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const late =
        (deadline?.signal.aborted === true && !signal.aborted) || code === 'UND_ERR_HEADERS_TIMEOUT';
      const reason = late
        ? `no answer within ${this.channel.timeout_seconds} s`
        : (code ?? (error as Error).message);
      throw new UpstreamFailure(`${this.channel.name} unreachable (${reason})`);
    } finally {
      deadline?.arrived();
    }
    if (response.statusCode >= 400) throw await failureOf(response);
    return response;
  }

  async complete(body: ChatRequest, signal: AbortSignal): Promise<ChatCompletion> {
    const response = await this.send({ ...body, stream: false }, signal);
    let completion: ChatCompletion;
    try {
      completion = (await response.body.json()) as ChatCompletion;
    } catch (error) {
      throw new UpstreamFailure(`${this.channel.name} sent a broken answer (${(error as Error).message})`);
    }
    return { ...completion, model: body.model };
  }

  async *stream(body: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatCompletionChunk> {
    const response = await this.send(
      { ...body, stream: true, stream_options: { ...(body.stream_options ?? {}), include_usage: true } },
      signal,
    );
    let done = false;
    try {
      for await (const data of sseData(response.body)) {
        // Read on to the body's end: leaving the loop early makes the stream build an AbortError.
        if (done || (done = data === '[DONE]')) continue;
        const chunk = JSON.parse(data) as ChatCompletionChunk & { error?: { message?: string } };
        if (chunk.error)
          throw new UpstreamFailure(
            `${this.channel.name} failed mid-stream: ${chunk.error.message ?? 'error'}`,
          );
        yield { ...chunk, model: body.model };
      }
    } catch (error) {
      if (error instanceof UpstreamFailure) throw error;
      throw new UpstreamFailure(`${this.channel.name} stream broke (${(error as Error).message})`);
    } finally {
      // A reader that stopped early (the client left) must not leave the connection held.
      if (!done && !response.body.destroyed) response.body.destroy();
    }
    if (!done) throw new UpstreamFailure(`${this.channel.name} ended the stream without [DONE]`);
  }
}
