/**
 * A time limit for an upstream's answer to begin. undici's own timeouts tick coarsely (around a
 * second), too coarse for short channel timeouts; this one is exact and is lifted once the
 * answer's headers are in (a stream then runs as long as its chunks keep coming).
 */
export function headerDeadline(signal: AbortSignal, ms: number): { signal: AbortSignal; arrived(): void } {
  // One controller for both causes: AbortSignal.any costs more than this on every request.
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const handle = setTimeout(() => controller.abort(new Error(`no answer within ${ms} ms`)), ms);
  return {
    signal: controller.signal,
    // The client's abort is still forwarded after this: it cancels a stream being read.
    arrived: () => clearTimeout(handle),
  };
}
