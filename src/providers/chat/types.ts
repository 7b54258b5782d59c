/**
 * The shapes chat providers speak: OpenAI chat completions. A request is the validated body of
 * `/chatmodel/chat/completions` or `/moon/chat/completions`; answers follow the contract's
 * `ChatCompletion` and `ChatCompletionChunk` schemas.
 */
import type { Static } from '@sinclair/typebox';
import type {
  ChatCompletion as CompletionSchema,
  ChatCompletionChunk as ChunkSchema,
} from '../../contract/chat.js';

export type ChatCompletion = Static<typeof CompletionSchema>;
export type ChatCompletionChunk = Static<typeof ChunkSchema>;

export interface ChatMessage {
  role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  content: string | null | { type: string; text?: string; image_url?: { url: string } }[];
  name?: string;
  tool_call_id?: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
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

/** A chat backend: an upstream channel or an in-process model. */
export interface ChatBackend {
  complete(request: ChatRequest, signal: AbortSignal): Promise<ChatCompletion>;
  /** Chunks as they come; the last one carries `usage` when the backend can count it. */
  stream(request: ChatRequest, signal: AbortSignal): AsyncIterable<ChatCompletionChunk>;
  /** Releases what the backend holds (an open model); optional. */
  close?(): Promise<void>;
}
