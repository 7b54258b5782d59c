/**
 * One choice of an answer: a generation on a leased sequence, and what came out of it in
 * OpenAI's terms (content, tool calls, finish reason, completion tokens).
 */
import type {
  ChatHistoryItem,
  LlamaChat,
  LlamaGrammar,
  LLamaChatGenerateResponseOptions,
  LlamaText,
  LlamaTextJSON,
} from 'node-llama-cpp';
import type { Sampling } from './sampling.js';
import type { Choice, FinishReason } from './shapes.js';
import { callId, forcedCall, type ToolMode } from './tools.js';
import type { ToolCall } from './types.js';

export interface ChoiceJob {
  chat: LlamaChat;
  history: ChatHistoryItem[];
  tools: ToolMode;
  /** The response format's grammar, or the forced call's. */
  grammar: LlamaGrammar | undefined;
  sampling: Sampling;
  index: number;
  maxTokens: number;
  signal: AbortSignal;
  /** Content as it is generated; not called for a forced call, whose text is the call itself. */
  onContent?: (text: string) => void;
  /** Rebuilds a function call's raw text, to count its tokens. */
  textOf: (raw: LlamaTextJSON) => LlamaText;
}

type Options = LLamaChatGenerateResponseOptions<undefined>;
type StopReason = Awaited<ReturnType<LlamaChat['generateResponse']>>['metadata']['stopReason'];

function finishOf(stop: StopReason): FinishReason {
  switch (stop) {
    case 'maxTokens':
      return 'length';
    case 'functionCalls':
      return 'tool_calls';
    default:
      return 'stop';
  }
}

export async function generateChoice(job: ChoiceJob): Promise<Choice> {
  const { chat, sampling, tools } = job;
  const forced = tools.kind === 'forced';
  let completionTokens = 0;
  const seed = sampling.seedOf(job.index);
  const options: Options = {
    signal: job.signal,
    maxTokens: job.maxTokens,
    temperature: sampling.temperature,
    ...(sampling.topP === undefined ? {} : { topP: sampling.topP }),
    ...(seed === undefined ? {} : { seed }),
    ...(sampling.tokenBias ? { tokenBias: sampling.tokenBias } : {}),
    repeatPenalty: sampling.repeatPenalty,
    customStopTriggers: sampling.customStopTriggers,
    // Text and thought segments alike: OpenAI counts reasoning in completion tokens too.
    onResponseChunk: (chunk) => {
      completionTokens += chunk.tokens.length;
      if (chunk.type === undefined && chunk.text !== '' && !forced) job.onContent?.(chunk.text);
    },
    ...(job.grammar ? { grammar: job.grammar } : {}),
  };
  const withTools =
    tools.kind === 'auto'
      ? ({
          ...options,
          functions: tools.functions,
          documentFunctionParams: true,
          ...(tools.parallel ? {} : { maxParallelFunctionCalls: 1 }),
        } as Options)
      : options;

  const response = await chat.generateResponse(job.history, withTools);
  job.signal.throwIfAborted();
  const finish = finishOf(response.metadata.stopReason);
  const text = response.response;

  if (forced && finish === 'stop') {
    return { content: null, toolCalls: [forcedCall(text)], finishReason: 'tool_calls', completionTokens };
  }
  const calls: ToolCall[] = (response.functionCalls ?? []).map((call) => {
    // Function calls do not pass through onResponseChunk; their raw text is what was generated.
    completionTokens += job.textOf(call.raw).tokenize(chat.model.tokenizer).length;
    return {
      id: callId(),
      type: 'function',
      function: { name: call.functionName, arguments: JSON.stringify(call.params ?? {}) },
    };
  });
  return {
    content: calls.length > 0 && text === '' ? null : text,
    toolCalls: calls,
    finishReason: calls.length > 0 ? 'tool_calls' : finish,
    completionTokens,
  };
}
