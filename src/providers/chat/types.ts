/**
 * The shapes chat providers speak: OpenAI chat completions. The message, request and answer
 * types are the local engine's (engines/llm/types.ts); the answers are held here to the
 * contract's `ChatCompletion` and `ChatCompletionChunk` schemas, so the two cannot drift apart.
 */
import type { Static } from '@sinclair/typebox';
import type {
  ChatCompletion as CompletionSchema,
  ChatCompletionChunk as ChunkSchema,
} from '../../contract/chat.js';
import type { ChatCompletion, ChatCompletionChunk, ChatRequest } from '../../engines/llm/index.js';
import type { StopSignal } from '../stop-signal.js';

export type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatMessage,
  ChatRequest,
  ChatTool,
} from '../../engines/llm/index.js';

/** Compiles only when `A` and `B` accept the same values. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const answersFollowTheContract: [
  Same<ChatCompletion, Static<typeof CompletionSchema>>,
  Same<ChatCompletionChunk, Static<typeof ChunkSchema>>,
] = [true, true];
void answersFollowTheContract;

/** A chat backend: an upstream channel or an in-process model. */
export interface ChatBackend {
  complete(request: ChatRequest, signal: StopSignal): Promise<ChatCompletion>;
  /** Chunks as they come; the last one carries `usage` when the backend can count it. */
  stream(request: ChatRequest, signal: StopSignal): AsyncIterable<ChatCompletionChunk>;
  /** Releases what the backend holds (an open model); optional. */
  close?(): Promise<void>;
}
