/**
 * The chat shapes this engine speaks: OpenAI chat completions. A request is a validated body of
 * a chat operation; answers follow the contract's `ChatCompletion` and `ChatCompletionChunk`
 * schemas (providers/chat/types.ts holds these types to those schemas).
 */

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | null | { type: string; text?: string; image_url?: { url: string } }[];
  name?: string;
  tool_call_id?: string;
  tool_calls?: ToolCall[];
}

export interface ChatTool {
  type: 'function';
  function: {
    name: string;
    description?: string;
    parameters?: Record<string, unknown>;
    strict?: boolean | null;
  };
}

/** The validated request (members not listed here pass through untouched). */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  n?: number | null;
  stream?: boolean | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  temperature?: number | null;
  top_p?: number | null;
  seed?: number;
  stop?: string | string[] | null;
  response_format?:
    | { type: 'text' | 'json_object' }
    | {
        type: 'json_schema';
        json_schema: { name: string; schema?: Record<string, unknown>; strict?: boolean | null };
      };
  tools?: ChatTool[] | null;
  tool_choice?: 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };
  stream_options?: { include_usage?: boolean } | null;
  [member: string]: unknown;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

/** Present when logprobs was asked for. */
type Logprobs = Record<string, unknown> | null;

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  /** Unix seconds. */
  created: number;
  model: string;
  choices: {
    index: number;
    message: {
      role: 'assistant';
      // Null when the answer is tool calls only, as OpenAI answers.
      content: string | null;
      tool_calls?: ToolCall[];
      refusal?: string | null;
    };
    finish_reason: FinishReason;
    logprobs?: Logprobs;
  }[];
  system_fingerprint?: string;
  usage?: Usage;
}

/** One `data:` event of a streamed answer. */
export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: {
    index: number;
    delta: {
      role?: 'assistant';
      content?: string | null;
      refusal?: string | null;
      tool_calls?: {
        index: number;
        id?: string;
        type?: 'function';
        function?: { name?: string; arguments?: string };
      }[];
    };
    finish_reason: FinishReason | null;
    logprobs?: Logprobs;
  }[];
  system_fingerprint?: string;
  usage?: Usage | null;
}
