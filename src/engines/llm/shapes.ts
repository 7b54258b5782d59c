/**
 * The answers in the contract's shapes (`ChatCompletion`, `ChatCompletionChunk`). The `model` is
 * always the one the request named: a channel may serve many names with one file, and clients
 * compare what they asked for with what they got.
 */
import { randomBytes } from 'node:crypto';
import type { ChatCompletion, ChatCompletionChunk, ToolCall, Usage } from './types.js';

export type FinishReason = 'stop' | 'length' | 'tool_calls';

export interface Choice {
  content: string | null;
  toolCalls: ToolCall[];
  finishReason: FinishReason;
  completionTokens: number;
}

export function usageOf(promptTokens: number, choices: readonly { completionTokens: number }[]): Usage {
  const completion = choices.reduce((sum, c) => sum + c.completionTokens, 0);
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion,
  };
}

/** What every chunk and completion of one answer shares. */
export interface Envelope {
  id: string;
  created: number;
  model: string;
}

export function envelope(model: string): Envelope {
  return { id: `chatcmpl-${randomBytes(12).toString('hex')}`, created: Math.floor(Date.now() / 1000), model };
}

export function completion(head: Envelope, choices: readonly Choice[], usage: Usage): ChatCompletion {
  return {
    ...head,
    object: 'chat.completion',
    choices: choices.map((choice, index) => ({
      index,
      message: {
        role: 'assistant',
        content: choice.content,
        ...(choice.toolCalls.length > 0 ? { tool_calls: choice.toolCalls } : {}),
        refusal: null,
      },
      finish_reason: choice.finishReason,
      logprobs: null,
    })),
    usage,
  };
}

type Delta = ChatCompletionChunk['choices'][number]['delta'];

export function chunk(
  head: Envelope,
  index: number,
  delta: Delta,
  finishReason: FinishReason | null = null,
): ChatCompletionChunk {
  return {
    ...head,
    object: 'chat.completion.chunk',
    choices: [{ index, delta, finish_reason: finishReason, logprobs: null }],
  };
}

/** The closing chunk of a stream: no choices, only the usage (OpenAI's `include_usage` form). */
export function usageChunk(head: Envelope, usage: Usage): ChatCompletionChunk {
  return { ...head, object: 'chat.completion.chunk', choices: [], usage };
}

/** Tool calls as one delta each, whole: names and arguments are known only once they are complete. */
export function toolCallDelta(calls: readonly ToolCall[]): Delta {
  return { tool_calls: calls.map((call, index) => ({ index, ...call })) };
}
