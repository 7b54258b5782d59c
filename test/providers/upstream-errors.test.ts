/**
 * Whom an upstream's refusal blames, from its status and the vendor's structured code only: the
 * words of a message, which may quote what the client sent, never make a channel's account at
 * fault, and a content policy's refusal is the request's whatever its status.
 */
import { describe, expect, it } from 'vitest';
import { UpstreamFailure } from '../../src/providers/router.js';
import { vendorErrorOf } from '../../src/providers/upstream-errors.js';

const openai = (code: string | null, message: string, type = 'invalid_request_error') =>
  JSON.stringify({ error: { message, type, param: null, code } });

/** The failure the upstream client makes of an answer: its status and the body's code. */
function failure(status: number, body: string): UpstreamFailure {
  const { code, message } = vendorErrorOf(body);
  return new UpstreamFailure(`${status} ${message ?? body}`, status, undefined, code);
}

const verdict = (f: UpstreamFailure) => ({
  account: f.accountFault,
  request: f.requestFault,
  channel: f.channelFault,
  retry: f.retryable,
});

describe('reading the vendor error shapes', () => {
  it('takes the code first, else the type, of OpenAI, ModelArk and this interface, and Kling’s number', () => {
    expect(vendorErrorOf(openai('invalid_api_key', 'Incorrect API key'))).toEqual({
      code: 'invalid_api_key',
      message: 'Incorrect API key',
    });
    expect(vendorErrorOf(JSON.stringify({ error: { type: 'insufficient_quota', message: 'm' } }))).toEqual({
      code: 'insufficient_quota',
      message: 'm',
    });
    expect(
      vendorErrorOf(JSON.stringify({ code: 1102, message: 'resource pack exhausted', request_id: 'r' })),
    ).toEqual({ code: '1102', message: 'resource pack exhausted' });
    expect(vendorErrorOf(JSON.stringify({ message: 'Unauthorized.', statusCode: 403 }))).toEqual({
      message: 'Unauthorized.',
    });
    expect(vendorErrorOf('<html>insufficient_quota</html>')).toEqual({});
  });
});

describe('whom a refusal blames', () => {
  it("never blames the account for a message's words", () => {
    const quoted = 'You said: insufficient_quota invalid_api_key billing_hard_limit_reached';
    expect(verdict(failure(400, openai(null, quoted)))).toEqual({
      account: false,
      request: false,
      channel: false,
      retry: false,
    });
    expect(verdict(failure(429, openai('rate_limit_exceeded', quoted, 'requests')))).toEqual({
      account: false,
      request: false,
      channel: false,
      retry: true,
    });
    expect(verdict(failure(400, quoted))).toMatchObject({ account: false });
  });

  it('blames the request for a content policy’s refusal, a 403 included', () => {
    for (const body of [
      openai('content_policy_violation', 'rejected: insufficient_quota'),
      JSON.stringify({ error: { code: 'OutputVideoSensitiveContentDetected', message: 'm' } }),
      JSON.stringify({ code: 1301, message: 'content security policy' }),
    ])
      expect(verdict(failure(403, body))).toEqual({
        account: false,
        request: true,
        channel: false,
        retry: false,
      });
  });

  it('blames the account for 401, 402 and the codes that say so, whatever the status', () => {
    expect(failure(401, 'anything').accountFault).toBe(true);
    expect(failure(402, '').accountFault).toBe(true);
    expect(failure(429, openai('insufficient_quota', 'quota', 'insufficient_quota')).accountFault).toBe(true);
    expect(failure(400, openai('billing_hard_limit_reached', 'limit')).accountFault).toBe(true);
    expect(
      failure(403, JSON.stringify({ error: { code: 'AccountOverdueError', message: 'm' } })).accountFault,
    ).toBe(true);
    expect(failure(429, JSON.stringify({ code: 1101, message: 'arrears' })).accountFault).toBe(true);
    expect(failure(403, JSON.stringify({ error: { code: 'used_up', message: 'm' } })).accountFault).toBe(
      true,
    );
  });

  it('tries another channel after a 403 without such a code, but does not blame the account', () => {
    expect(verdict(failure(403, JSON.stringify({ message: 'Unauthorized.', statusCode: 403 })))).toEqual({
      account: false,
      request: false,
      channel: true,
      retry: false,
    });
  });
});
