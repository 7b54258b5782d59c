/**
 * What an upstream's error answer says about whom: the channel's own account (its key refused,
 * its money spent), or the request (a content policy refused what the client sent). Read from the
 * HTTP status and the vendor's structured error code only, never from the message: a message may
 * repeat what the client sent, so a client could write one that blames the channel.
 *
 * The codes are read from the error shapes the vendors document:
 * - OpenAI and the OpenAI-compatible, BytePlus ModelArk (Seedance), and this same interface
 *   (passthrough): `{"error": {"code", "type", "message"}}`, the code first, else the type;
 * - Kling: `{"code": 1102, "message", "request_id"}`.
 * MiniMax answers errors with HTTP 200 and `base_resp`, which its adapter turns into the status
 * each code stands for (video/channels/minimax.ts); Serper and SearXNG send no code.
 */

/** The vendor's code and message, where the answer has one of the documented shapes. */
export interface VendorError {
  code?: string;
  message?: string;
}

/**
 * Codes that say the channel's account cannot be used until its operator acts (the statuses 401
 * and 402 say so by themselves).
 */
const ACCOUNT_CODES = new Set([
  // OpenAI (platform.openai.com/docs/guides/error-codes): a spent quota is a 429 like a rate limit.
  'invalid_api_key',
  'account_deactivated',
  'insufficient_quota',
  'billing_hard_limit_reached',
  'billing_not_active',
  // ModelArk: the key refused, the account overdue.
  'AuthenticationError',
  'AccountOverdueError',
  // This interface: the channel's own token has no credits left.
  'used_up',
  // Kling, under HTTP 429: account exception, account in arrears, resource pack spent or expired.
  '1100',
  '1101',
  '1102',
]);

/** Codes that say a content policy refused the request itself, wherever it would be sent. */
const REQUEST_CODES = new Set([
  // OpenAI, and Azure OpenAI's content filter.
  'content_policy_violation',
  'content_filter',
  'moderation_blocked',
  // ModelArk: sensitive content in the input or in what it would output.
  'SensitiveContentDetected',
  'InputTextSensitiveContentDetected',
  'InputImageSensitiveContentDetected',
  'InputVideoSensitiveContentDetected',
  'OutputTextSensitiveContentDetected',
  'OutputImageSensitiveContentDetected',
  'OutputVideoSensitiveContentDetected',
  // Kling: the platform's strategy, its content security policy.
  '1300',
  '1301',
]);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const textOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/** The code and message of an error answer's body; empty when it has no documented shape. */
export function vendorErrorOf(body: string): VendorError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (!isObject(parsed)) return {};
  const { error } = parsed;
  if (isObject(error)) {
    const code = textOf(error.code) ?? textOf(error.type);
    const message = textOf(error.message);
    return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
  }
  if (typeof error === 'string') return { message: error };
  const message = textOf(parsed.message);
  const code = typeof parsed.code === 'number' && parsed.code !== 0 ? String(parsed.code) : undefined;
  return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
}

/** The channel's account is at fault: no retry helps until its operator acts. */
export function blamesAccount(status: number | undefined, code: string | undefined): boolean {
  if (code !== undefined && REQUEST_CODES.has(code)) return false;
  return status === 401 || status === 402 || (code !== undefined && ACCOUNT_CODES.has(code));
}

/** A content policy refused the request: the client's to change, on any channel. */
export function blamesRequest(code: string | undefined): boolean {
  return code !== undefined && REQUEST_CODES.has(code);
}
