/**
 * The longest a synchronous request can go on, by the settings that bound it. A credit hold
 * (`limits.hold_seconds`) must outlast it: an expired hold is given back, and a request still
 * being answered then ends free.
 *
 * A synchronous call through channels tries every channel of its family in turn, each up to
 * `routing.retries + 1` times, each try for up to the channel's `timeout_seconds`, pausing
 * `routing.backoff_ms` (doubling) between tries: the longest is the sum of all of it. Families
 * answered only as tasks (video, music, QR art) hold nothing, since their credits are taken at
 * submission and given back at the task's end: their channels' timeouts do not count.
 */
import { OPERATIONS } from '../contract/table.js';
import type { ConfigInput } from './schema.js';

export interface Wait {
  /** The settings that make it up. */
  key: string;
  seconds: number;
}

const SYNCHRONOUS = new Set<string>(OPERATIONS.filter((o) => o.kind === 'sync').map((o) => o.family));

export function longestWait(input: ConfigInput): Wait {
  const waits: Wait[] = [
    { key: 'limits.sync_wait_seconds', seconds: input.limits.sync_wait_seconds },
    { key: 'limits.mcp_wait_seconds', seconds: input.limits.mcp_wait_seconds },
    ...[...SYNCHRONOUS].flatMap((family) => routedWait(input, family) ?? []),
  ];
  return waits.reduce((longest, wait) => (wait.seconds > longest.seconds ? wait : longest));
}

/** Every try of a call of `family` through its channels, with the pauses between them. */
function routedWait(input: ConfigInput, family: string): Wait | undefined {
  const { retries, backoff_ms: backoffMs } = input.routing;
  const channels = input.channels.flatMap((c, i) => (c.capability === family ? [{ c, i }] : []));
  if (channels.length === 0) return undefined;
  const pauses = (backoffMs * (2 ** retries - 1)) / 1000;
  const seconds = channels.reduce((sum, { c }) => sum + (retries + 1) * c.timeout_seconds + pauses, 0);
  // In milliseconds, as the router counts: fractions of a second added up leave float dust.
  const rounded = Math.round(seconds * 1000) / 1000;
  const names = channels.map(({ i }) => `channels[${i}].timeout_seconds`).join(' + ');
  return {
    key: `${family} through ${names}, each tried routing.retries + 1 = ${retries + 1} times, routing.backoff_ms between tries`,
    seconds: rounded,
  };
}
