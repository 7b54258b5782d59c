/**
 * A chat backend that runs a GGUF model in this process with llama.cpp (node-llama-cpp), for a
 * `local-llm` channel. Loading a model takes seconds and its memory, so a `LocalLlm` is opened
 * once per channel and serves every request until it is closed. The model's own chat template
 * renders the conversation (node-llama-cpp picks the matching chat wrapper), and grammars hold
 * JSON answers and forced tool calls to their schema.
 */
import type { ChatWrapper, Llama, LlamaContext, LlamaLogLevel, LlamaModel, Token } from 'node-llama-cpp';
import { availableParallelism } from 'node:os';
import { ChunkQueue } from './chunk-queue.js';
import { LocalLlmError } from './errors.js';
import { generateChoice, type ChoiceJob } from './generate.js';
import { Grammars } from './grammars.js';
import { checkModelFile } from './model-file.js';
import { planOf, type Engine, type Plan } from './plan.js';
import { listenToLlamaLogs, llamaRuntime, nodeLlamaCpp, type NodeLlamaCpp } from './runtime.js';
import { SequencePool } from './sequences.js';
import {
  chunk,
  completion,
  envelope,
  toolCallDelta,
  usageChunk,
  usageOf,
  type Choice,
  type Envelope,
} from './shapes.js';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest } from './types.js';

export interface LocalLlmOptions {
  /** Tokens each sequence can hold, prompt and answer together; default 4096 (or less, if the model was trained on less). */
  contextSize?: number;
  /** Requests served at once (context sequences); default 1, which suits a machine of few cores. */
  parallel?: number;
  /**
   * CPU threads for evaluation; default: one less than the cores, at least one. llama.cpp's
   * threads wait for each other by spinning, so when they outnumber the free cores (the
   * gateway's own thread needs one) every token waits on a descheduled thread (docs/local-llm.md
   * has measurements). node-llama-cpp's own default is at least 4.
   */
  threads?: number;
  /** Most tokens an answer may have when the request sets no limit; default: the rest of the context. */
  maxTokens?: number;
  /** llama.cpp's log lines; default: warnings and errors on stderr. Process-wide: the first model opened sets it. */
  logger?: (level: LlamaLogLevel, message: string) => void;
}

const DEFAULT_CONTEXT = 4096;

export class LocalLlm {
  private readonly pool: SequencePool;
  private readonly engine: Engine;
  private closing: Promise<void> | undefined;

  private constructor(
    private readonly library: NodeLlamaCpp,
    llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly wrapper: ChatWrapper,
    options: LocalLlmOptions,
    readonly modelPath: string,
  ) {
    this.pool = new SequencePool(Array.from({ length: context.totalSequences }, () => context.getSequence()));
    this.engine = {
      library,
      model,
      wrapper,
      grammars: new Grammars(llama),
      contextSize: context.contextSize,
      maxTokens: options.maxTokens,
    };
  }

  /** Loads the GGUF file at `modelPath` (never downloads one). */
  static async open(modelPath: string, options: LocalLlmOptions = {}): Promise<LocalLlm> {
    await checkModelFile(modelPath);
    const library = await nodeLlamaCpp();
    const threads = options.threads ?? Math.max(1, availableParallelism() - 1);
    const llama = await llamaRuntime({ logger: options.logger });
    const explanations: string[] = [];
    const stopListening = listenToLlamaLogs((level, message) => {
      if (level === 'error' || level === 'fatal') explanations.push(message.trim());
    });
    let model: LlamaModel;
    try {
      model = await llama.loadModel({ modelPath, gpuLayers: 0 });
    } catch (error) {
      // The native side's log lines reach JavaScript through the event loop, after the rejection.
      await new Promise((resolve) => setImmediate(resolve));
      const why = [...explanations, (error as Error).message].join('; ');
      throw new LocalLlmError('model_invalid', `model file ${modelPath}: llama.cpp cannot load it: ${why}`, {
        cause: error,
      });
    } finally {
      stopListening();
    }
    try {
      const context = await model.createContext({
        contextSize: Math.min(options.contextSize ?? DEFAULT_CONTEXT, model.trainContextSize),
        sequences: Math.max(1, options.parallel ?? 1),
        threads,
      });
      const wrapper = library.resolveChatWrapper(model);
      return new LocalLlm(library, llama, model, context, wrapper, options, modelPath);
    } catch (error) {
      await model.dispose();
      throw new LocalLlmError(
        'model_invalid',
        `model file ${modelPath}: no context could be created: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
  }

  /** Tokens each request can use, prompt and answer together. */
  get contextSize(): number {
    return this.context.contextSize;
  }

  /** The chat wrapper node-llama-cpp chose from the model's template (`ChatML`, `Llama 3.1`, …). */
  get chatWrapperName(): string {
    return this.wrapper.wrapperName;
  }

  /**
   * The model's tokens for `text`. Special-token names in it (`<|im_end|>`) are plain text
   * unless `special` is set, as they are in messages.
   */
  tokenize(text: string, special = false): number[] {
    return this.model.tokenize(text, special);
  }

  detokenize(tokens: readonly number[]): string {
    return this.model.detokenize(tokens as Token[]);
  }

  async complete(request: ChatRequest, signal: AbortSignal): Promise<ChatCompletion> {
    const plan = await this.plan(request);
    const head = envelope(request.model);
    const choices = await this.withSequence(signal, (chat) => this.run(plan, chat, signal));
    return completion(head, choices, usageOf(plan.promptTokens, choices));
  }

  async *stream(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ChatCompletionChunk> {
    const plan = await this.plan(request);
    const head = envelope(request.model);
    // Stops the generation when the request is abandoned or the reader stops reading.
    const stop = new AbortController();
    const forward = () => stop.abort(signal.reason);
    if (signal.aborted) forward();
    else signal.addEventListener('abort', forward, { once: true });
    const chunks = new ChunkQueue<ChatCompletionChunk>();
    const work = this.withSequence(stop.signal, (chat) => this.run(plan, chat, stop.signal, head, chunks))
      .then((choices) => {
        chunks.push(usageChunk(head, usageOf(plan.promptTokens, choices)));
        chunks.end();
      })
      .catch((error: unknown) => chunks.fail(error));
    try {
      yield* chunks;
    } finally {
      signal.removeEventListener('abort', forward);
      stop.abort(new Error('the stream was closed'));
      await work;
    }
  }

  private plan(request: ChatRequest): Promise<Plan> {
    if (this.closing) return Promise.reject(new LocalLlmError('closed', 'the local model was closed'));
    return planOf(request, this.engine);
  }

  /** Frees the model; requests still waiting fail, those running should have ended. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.pool.close();
      await this.context.dispose();
      await this.model.dispose();
    })();
    return this.closing;
  }

  private async withSequence<T>(
    signal: AbortSignal,
    use: (chat: InstanceType<NodeLlamaCpp['LlamaChat']>) => Promise<T>,
  ): Promise<T> {
    const sequence = await this.pool.acquire(signal);
    const chat = new this.library.LlamaChat({ contextSequence: sequence, chatWrapper: this.wrapper });
    try {
      return await use(chat);
    } finally {
      chat.dispose({ disposeSequence: false });
      this.pool.release(sequence);
    }
  }

  /** Every choice, one after the other on one sequence (the prompt's evaluation is reused). */
  private async run(
    plan: Plan,
    chat: ChoiceJob['chat'],
    signal: AbortSignal,
    head?: Envelope,
    chunks?: ChunkQueue<ChatCompletionChunk>,
  ): Promise<Choice[]> {
    const choices: Choice[] = [];
    for (let index = 0; index < plan.choices; index += 1) {
      let streamed = false;
      if (head && chunks) chunks.push(chunk(head, index, { role: 'assistant', content: '' }));
      const choice = await generateChoice({
        chat,
        history: plan.history,
        tools: plan.tools,
        grammar: plan.grammar,
        sampling: plan.sampling,
        index,
        maxTokens: plan.maxTokens,
        signal,
        textOf: (raw) => this.library.LlamaText.fromJSON(raw),
        ...(head && chunks
          ? {
              onContent: (text: string) => {
                streamed = true;
                chunks.push(chunk(head, index, { content: text }));
              },
            }
          : {}),
      });
      if (head && chunks) {
        // A forced call cut short is returned as the text it got to, which was not streamed.
        if (!streamed && choice.content) chunks.push(chunk(head, index, { content: choice.content }));
        if (choice.toolCalls.length > 0) chunks.push(chunk(head, index, toolCallDelta(choice.toolCalls)));
        chunks.push(chunk(head, index, {}, choice.finishReason));
      }
      choices.push(choice);
    }
    return choices;
  }
}
