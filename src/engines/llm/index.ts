/** In-process chat with a local GGUF model: see docs/local-llm.md. */
export { LocalLlm, type LocalLlmOptions } from './local-llm.js';
export { LocalLlmError, type LocalLlmErrorCode } from './errors.js';
export type { ChatCompletion, ChatCompletionChunk, ChatMessage, ChatRequest, ChatTool } from './types.js';
