/**
 * A time limit for an upstream's answer to begin. undici's own timeouts tick coarsely (around a
 * second), too coarse for short channel timeouts; this one is exact and is lifted once the
 * answer's headers are in (a stream then runs as long as its chunks keep coming).
 */
export function headerDeadline(signal: AbortSignal, ms: number): { signal: AbortSignal; arrived(): void } {
  const timer = new AbortController();
  const handle = setTimeout(() => timer.abort(new Error(`no answer within ${ms} ms`)), ms);
  return { signal: AbortSignal.any([signal, timer.signal]), arrived: () => clearTimeout(handle) };
}
