/**
 * A `local-llm` channel: a GGUF model run in-process (engines/llm). The model opens on the first
 * request (loading takes a second or more) and stays open until shutdown. A request the model
 * cannot take is the client's fault (400); a model that cannot be opened or fails is a channel
 * fault, so the router moves on to the next channel.
 */
import { ServiceError } from '../../errors.js';
import { UpstreamFailure } from '../router.js';
import type { ChatBackend, ChatCompletion, ChatCompletionChunk, ChatRequest } from './types.js';
import { abortSignalOf, type StopSignal } from '../stop-signal.js';

type Engine = typeof import('../../engines/llm/index.js');
type Model = Awaited<ReturnType<Engine['LocalLlm']['open']>>;

export class LocalModel implements ChatBackend {
  private opening: Promise<Model> | undefined;

  constructor(private readonly channel: { name: string; model_path?: string }) {}

  private model(): Promise<Model> {
    this.opening ??= import('../../engines/llm/index.js').then(
      (engine) => engine.LocalLlm.open(this.channel.model_path ?? ''),
      (error: unknown) => {
        throw new Error(`the optional package node-llama-cpp is not installed (${(error as Error).message})`);
      },
    );
    return this.opening;
  }

  private failure(error: unknown): Error {
    const requestError = (error as { requestError?: boolean }).requestError === true;
    if (requestError) {
      const message = (error as Error).message;
      return new ServiceError('bad_request', message, { details: [{ field: 'body', rule: message }] });
    }
    return new UpstreamFailure(`${this.channel.name}: ${(error as Error).message}`);
  }

  // The engine takes an AbortSignal of its own, made for the call and let go when it ends.
  async complete(request: ChatRequest, stop: StopSignal): Promise<ChatCompletion> {
    const { signal, release } = abortSignalOf(stop);
    try {
      return await (await this.model()).complete(request, signal);
    } catch (error) {
      throw this.failure(error);
    } finally {
      release();
    }
  }

  async *stream(request: ChatRequest, stop: StopSignal): AsyncGenerator<ChatCompletionChunk> {
    const { signal, release } = abortSignalOf(stop);
    try {
      yield* (await this.model()).stream(request, signal);
    } catch (error) {
      throw this.failure(error);
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    const model = await this.opening?.catch(() => undefined);
    await model?.close();
  }
}
