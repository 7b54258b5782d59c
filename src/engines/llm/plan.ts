/**
 * A request made ready to generate: the history in node-llama-cpp's form, the tool mode, the
 * grammar, the sampling, the prompt's length in tokens and the room left for the answer. All of
 * it is worked out before the request waits for a sequence, so that a request the engine cannot
 * serve fails at once and before a stream has sent anything.
 */
import type { ChatHistoryItem, ChatWrapper, LlamaGrammar, LlamaModel } from 'node-llama-cpp';
import { LocalLlmError, unsupported } from './errors.js';
import type { Grammars } from './grammars.js';
import { grammarSchema } from './json-schema.js';
import { toHistory } from './messages.js';
import type { NodeLlamaCpp } from './runtime.js';
import { samplingOf, type Sampling } from './sampling.js';
import { toolMode, withInstruction, type ToolMode } from './tools.js';
import type { ChatRequest } from './types.js';

export interface Plan {
  history: ChatHistoryItem[];
  tools: ToolMode;
  grammar: LlamaGrammar | undefined;
  sampling: Sampling;
  choices: number;
  promptTokens: number;
  maxTokens: number;
}

export interface Engine {
  library: NodeLlamaCpp;
  model: LlamaModel;
  wrapper: ChatWrapper;
  grammars: Grammars;
  contextSize: number;
  /** The answer's length when the request sets none; default: the rest of the context. */
  maxTokens: number | undefined;
}

function refuseUnsupported(request: ChatRequest): void {
  if (request.logprobs === true) throw unsupported('logprobs', 'log probabilities are not returned');
  const modalities = request.modalities as string[] | null | undefined;
  if (request.audio != null || modalities?.includes('audio')) throw unsupported('audio', 'audio output');
}

async function grammarOf(
  request: ChatRequest,
  tools: ToolMode,
  grammars: Grammars,
): Promise<LlamaGrammar | undefined> {
  if (tools.kind === 'forced') return grammars.forSchema(tools.schema, 'tools');
  const format = request.response_format;
  if (!format || format.type === 'text') return undefined;
  // A grammar and node-llama-cpp's detection of the model's own calls cannot run together.
  if (tools.kind === 'auto') {
    throw unsupported(
      'response_format',
      'a JSON format together with tools needs tool_choice none, required or a named function',
    );
  }
  if (format.type === 'json_schema' && format.json_schema.schema) {
    const member = 'response_format.json_schema.schema';
    return grammars.forSchema(grammarSchema(format.json_schema.schema, member), member);
  }
  // json_object, or a json_schema without a schema: any JSON object.
  return grammars.anyObject();
}

export async function planOf(request: ChatRequest, engine: Engine): Promise<Plan> {
  refuseUnsupported(request);
  const tools = toolMode(request);
  const grammar = await grammarOf(request, tools, engine.grammars);
  const messages = toHistory(request.messages);
  const history = tools.kind === 'forced' ? withInstruction(messages, tools.tools) : messages;

  // The prompt exactly as the model will see it: template, tool documentation and all.
  const rendered = engine.wrapper.generateContextState({
    chatHistory: history,
    ...(tools.kind === 'auto' ? { availableFunctions: tools.functions } : {}),
    documentFunctionParams: true,
  });
  const promptTokens = rendered.contextText.tokenize(engine.model.tokenizer).length;
  const room = engine.contextSize - promptTokens;
  if (room <= 0) {
    throw new LocalLlmError(
      'prompt_too_long',
      `messages: the prompt is ${promptTokens} tokens; this model's context holds ${engine.contextSize}`,
    );
  }
  const asked = request.max_completion_tokens ?? request.max_tokens ?? engine.maxTokens ?? room;
  return {
    history,
    tools,
    grammar,
    sampling: samplingOf(request, engine.model, engine.library),
    choices: request.n ?? 1,
    promptTokens,
    maxTokens: Math.min(asked, room),
  };
}
