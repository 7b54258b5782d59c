/**
 * OpenAI's sampling members in node-llama-cpp's terms. The defaults are OpenAI's, not
 * node-llama-cpp's: temperature 1 (node-llama-cpp samples greedily by default), no repetition
 * penalty (node-llama-cpp applies 1.1 by default), nucleus sampling off.
 */
import type { LLamaChatGenerateResponseOptions, LlamaModel, Token, TokenBias } from 'node-llama-cpp';
import { invalid } from './errors.js';
import type { NodeLlamaCpp } from './runtime.js';
import type { ChatRequest } from './types.js';

type GenerateOptions = LLamaChatGenerateResponseOptions<undefined>;

export type Sampling = Pick<
  GenerateOptions,
  'temperature' | 'topP' | 'repeatPenalty' | 'customStopTriggers'
> & {
  tokenBias?: TokenBias;
  /** The seed of choice `index`, when the request gave one. */
  seedOf: (index: number) => number | undefined;
};

const UINT32 = 2 ** 32;

/**
 * llama.cpp seeds are 32-bit, and 0xFFFFFFFF means "pick a random seed". Each choice gets the
 * request's seed plus its index: choices differ from each other, and the same request gives the
 * same choices again.
 */
export function seedFor(seed: number, index: number): number {
  const wrapped = (((seed + index) % UINT32) + UINT32) % UINT32;
  return wrapped === UINT32 - 1 ? 0 : wrapped;
}

function stopTriggers(stop: ChatRequest['stop']): string[] {
  const list = stop == null ? [] : typeof stop === 'string' ? [stop] : stop;
  return list.filter((s) => s.length > 0);
}

function tokenBias(request: ChatRequest, model: LlamaModel, library: NodeLlamaCpp): TokenBias | undefined {
  const biases = request.logit_bias as Record<string, number> | null | undefined;
  if (biases == null || Object.keys(biases).length === 0) return undefined;
  const bias = new library.TokenBias(model.tokenizer);
  // An id past the vocabulary would index past llama.cpp's logits, so it is checked here.
  const metadata = model.fileInfo.metadata as { tokenizer?: { ggml?: { tokens?: readonly string[] } } };
  const vocabulary = metadata.tokenizer?.ggml?.tokens?.length ?? 0;
  for (const [id, value] of Object.entries(biases)) {
    const token = Number(id);
    if (!Number.isInteger(token) || token >= vocabulary) {
      throw invalid(`logit_bias.${id}`, `is not a token id of this model (0 to ${vocabulary - 1})`);
    }
    // OpenAI adds the bias to the logit; -100 is its documented "ban".
    bias.set(token as Token, value <= -100 ? 'never' : { logit: value });
  }
  return bias;
}

export function samplingOf(request: ChatRequest, model: LlamaModel, library: NodeLlamaCpp): Sampling {
  const frequency = (request.frequency_penalty as number | null | undefined) ?? 0;
  const presence = (request.presence_penalty as number | null | undefined) ?? 0;
  const seed = request.seed;
  const bias = tokenBias(request, model, library);
  return {
    temperature: request.temperature ?? 1,
    ...(request.top_p != null && request.top_p < 1 ? { topP: request.top_p } : {}),
    repeatPenalty:
      frequency === 0 && presence === 0
        ? false
        : { penalty: 1, frequencyPenalty: frequency, presencePenalty: presence, penalizeNewLine: false },
    customStopTriggers: stopTriggers(request.stop),
    ...(bias ? { tokenBias: bias } : {}),
    seedOf: (index) => (seed == null ? undefined : seedFor(seed, index)),
  };
}
