/**
 * What the local model engine can fail with. Engines know nothing of HTTP, so the error says
 * whose fault it is instead of carrying a status: `requestError` is true when the request asks
 * for something this engine cannot do (the caller answers 400 and should not retry elsewhere
 * blindly), false when the model or the runtime is at fault.
 */
export type LocalLlmErrorCode =
  /** The configured GGUF file does not exist or cannot be read. */
  | 'model_not_found'
  /** The file is not a GGUF model llama.cpp can load (corrupt, truncated, unknown architecture). */
  | 'model_invalid'
  /** node-llama-cpp or its prebuilt binary is not installed for this platform. */
  | 'runtime_unavailable'
  /** A member of the request this engine does not implement (images, logprobs, a schema keyword). */
  | 'unsupported'
  /** A request that contradicts itself (a tool result answering no call, an unknown token id). */
  | 'invalid_request'
  /** The prompt alone fills the context window. */
  | 'prompt_too_long'
  /** The engine was closed. */
  | 'closed';

const REQUEST_ERRORS: ReadonlySet<LocalLlmErrorCode> = new Set([
  'unsupported',
  'invalid_request',
  'prompt_too_long',
]);

export class LocalLlmError extends Error {
  override name = 'LocalLlmError';

  constructor(
    readonly code: LocalLlmErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  /** The request is at fault, not the model: answer 400. */
  get requestError(): boolean {
    return REQUEST_ERRORS.has(this.code);
  }
}

export const unsupported = (member: string, why: string) =>
  new LocalLlmError('unsupported', `${member}: ${why} (not supported by the local model engine)`);

export const invalid = (member: string, rule: string) =>
  new LocalLlmError('invalid_request', `${member}: ${rule}`);
