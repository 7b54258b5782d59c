/**
 * Kling's API token: a JWT that the caller signs itself (HS256, with its secret key), naming its
 * access key as issuer, valid for 30 minutes from 5 seconds ago, the vendor's documented recipe
 * (app.klingai.com/global/dev/document-api, "API authentication"). Three base64url parts and one
 * HMAC need no library.
 */
import { createHmac } from 'node:crypto';

const VALID_SECONDS = 1800;
/** A token starts a little in the past, so that a vendor clock running behind still takes it. */
const EARLY_SECONDS = 5;

const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A compact JWT of `claims`, signed with HMAC-SHA256. */
export function signJwt(claims: Record<string, unknown>, secret: string): string {
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/**
 * The bearer token for a channel key: `ACCESS:SECRET` signs a fresh token (each call gets its
 * own, so none expires mid-task); a key without a colon is a token made elsewhere, used as is.
 */
export function klingToken(apiKey: string, nowMs = Date.now()): string {
  const colon = apiKey.indexOf(':');
  if (colon < 0) return apiKey;
  const now = Math.floor(nowMs / 1000);
  return signJwt(
    { iss: apiKey.slice(0, colon), exp: now + VALID_SECONDS, nbf: now - EARLY_SECONDS },
    apiKey.slice(colon + 1),
  );
}
