/**
 * What the video vendors have in common on top of the shared upstream client (which keeps the
 * statuses, time limits and key redaction): JSON calls with the vendor's own authorization header
 * answered by an object, the model rename, and readings that several answers share.
 */
import { UpstreamFailure } from '../../router.js';
import { integerOf, objectOf, type Json } from '../../json-readers.js';
import { callUpstream, jsonOf } from '../../upstream.js';
import type { UpstreamVideo, VideoChannel } from './types.js';

export type { Json };

/** `url` without the slashes it may end in, or `fallback` when there is none. */
export function baseOf(channel: VideoChannel, fallback = ''): string {
  return (channel.base_url ?? fallback).replace(/\/+$/, '');
}

/** The upstream's name for our `model`: the channel's map first, then the vendor's default. */
export function upstreamModel(
  channel: VideoChannel,
  model: unknown,
  defaults: (model: string) => string,
): string {
  const requested = typeof model === 'string' ? model : '';
  return channel.model_map[requested] ?? defaults(requested);
}

export async function callJson(
  channel: VideoChannel,
  url: string,
  authorization: Record<string, string>,
  signal: AbortSignal,
  body?: unknown,
): Promise<Json> {
  const response = await callUpstream(
    channel,
    url,
    body === undefined
      ? { method: 'GET', headers: authorization }
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...authorization },
          body: JSON.stringify(body),
        },
    signal,
  );
  const answer = objectOf(await jsonOf(channel, response));
  if (answer === undefined) throw new UpstreamFailure(`${channel.name} sent an answer that is not an object`);
  return answer;
}

/** The usual `Authorization: Bearer <key>`, or nothing for a channel without a key. */
export function bearer(key: string | undefined): Record<string, string> {
  return key ? { authorization: `Bearer ${key}` } : {};
}

/** Token usage `{completion_tokens, total_tokens}`, when both are there. */
export function usageOf(value: unknown): UpstreamVideo['usage'] {
  const usage = objectOf(value);
  const completion = integerOf(usage?.completion_tokens);
  const total = integerOf(usage?.total_tokens);
  return completion === undefined || total === undefined
    ? undefined
    : { completion_tokens: completion, total_tokens: total };
}
