/**
 * The request that probes a channel, by type: one that costs nothing and is never billed, sent
 * with the channel's key in the vendor's own way, so that a refused key or a spent quota shows
 * before a client's call runs into it.
 *
 * - An authenticated read where the vendor has one: the model list of OpenAI-compatible upstreams,
 *   the account of an upstream of this same interface, the first page of Kling's and ModelArk's
 *   task lists, a MiniMax task query (whose errors come as HTTP 200 with a code, read here as the
 *   status the code stands for).
 * - Otherwise a request the upstream must refuse as incomplete after checking its key (an empty
 *   JSON object to the capability's first operation): nothing runs and nothing is billed, and a
 *   400 says the key was taken. The origin and Serper are probed this way.
 * - SearXNG has no key: its `/config` says whether it answers.
 */
import { originPathOf } from '../compat/origin.js';
import { OPERATIONS } from '../contract/table.js';
import type { Family } from '../contract/types.js';
import { KLING_URL } from '../providers/video/channels/kling.js';
import { klingToken } from '../providers/video/channels/kling-auth.js';
import { MINIMAX_URL, minimaxStatusOf } from '../providers/video/channels/minimax.js';
import { BYTEPLUS_URL, TASKS as SEEDANCE_TASKS } from '../providers/video/channels/seedance.js';
import { SERPER_URL } from '../providers/serp/channels/serper.js';

export interface ProbedChannel {
  type: string;
  capability: Family;
  base_url?: string | null;
  api_key?: string;
}

export interface ProbeRequest {
  url: string;
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string };
  /** Whether the key went with it: without one, a refusal only says the upstream is up. */
  keyed: boolean;
  /** The HTTP status an answer stands for, where the vendor puts its errors in the body. */
  statusOf?: (status: number, body: string) => number;
}

const bare = (url: string | null | undefined, fallback = '') => (url ?? fallback).replace(/\/+$/, '');

/** The path of the capability's first operation, the one an incomplete request is sent to. */
function firstOperationPath(family: Family): string {
  const operation = OPERATIONS.find((o) => o.family === family && o.kind !== 'retrieval');
  if (!operation) throw new Error(`no operation serves ${family}`);
  return operation.path;
}

function incomplete(url: string, headers: Record<string, string>, keyed: boolean): ProbeRequest {
  return {
    url,
    init: { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' },
    keyed,
  };
}

function minimaxStatus(status: number, body: string): number {
  if (status !== 200) return status;
  try {
    return minimaxStatusOf(JSON.parse(body) as Record<string, unknown>);
  } catch {
    return 502;
  }
}

export function probeRequestOf(channel: ProbedChannel): ProbeRequest {
  const key = channel.api_key;
  const keyed = key !== undefined && key !== '';
  const bearer: Record<string, string> = keyed ? { authorization: `Bearer ${key}` } : {};
  const get = (url: string, headers = bearer): ProbeRequest => ({
    url,
    init: { method: 'GET', headers },
    keyed,
  });
  const base = bare(channel.base_url);
  switch (channel.type) {
    case 'openai-compatible':
      return get(`${base}/models`);
    case 'passthrough':
      return get(`${base}/v1/account`);
    case 'origin':
      return incomplete(
        `${base}${originPathOf(firstOperationPath(channel.capability), true)}`,
        bearer,
        keyed,
      );
    case 'serper':
      return incomplete(
        `${bare(channel.base_url, SERPER_URL)}/search`,
        keyed ? { 'x-api-key': key } : {},
        keyed,
      );
    case 'kling':
      return get(
        `${bare(channel.base_url, KLING_URL)}/v1/videos/text2video?pageNum=1&pageSize=1`,
        keyed ? { authorization: `Bearer ${klingToken(key)}` } : {},
      );
    case 'seedance':
      return get(`${bare(channel.base_url, BYTEPLUS_URL)}${SEEDANCE_TASKS}?page_num=1&page_size=1`);
    case 'minimax':
      return {
        ...get(`${bare(channel.base_url, MINIMAX_URL)}/v1/query/video_generation?task_id=0`),
        statusOf: minimaxStatus,
      };
    default:
      // SearXNG, and any type without a key: whether it answers at all.
      return { url: `${base}/config`, init: { method: 'GET', headers: {} }, keyed: false };
  }
}
