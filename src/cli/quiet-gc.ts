/**
 * One full garbage collection when the process goes quiet after work. V8 collects its old
 * generation when it grows, not when the requests stop: ten seconds after a burst of chat
 * requests the heap held 80 MiB of old objects, 45 of them dead, beside a 32 MiB young
 * generation, and V8's own memory reducer (it waits 8 s past the last full collection for a low
 * allocation rate, then marks in steps) gave them back 40 to 70 s later. Here, once the process
 * has used next to no CPU for QUIET_TICKS seconds and its heap has grown by GROWTH_BYTES since
 * the last collection, the inspector protocol's HeapProfiler.collectGarbage (available without a
 * flag at start, unlike `global.gc`) collects every dead object and shrinks the young
 * generation; it takes some tens of milliseconds of a thread nobody is waiting on.
 */
import type { Session } from 'node:inspector';
import { cpuUsage } from 'node:process';
import { getHeapStatistics } from 'node:v8';

const TICK_MS = 1000;
/** A tick is quiet under this much CPU, 2 % of a core (the idle server's own timers use less). */
const QUIET_CPU_US = 20_000;
const QUIET_TICKS = 2;
/** Less than this to win back is not worth a full collection. */
const GROWTH_BYTES = 8 * 2 ** 20;

/**
 * Starts watching; answers the function that stops it. `release` runs after each collection,
 * for what the caller can give back too once the heap has let go of it.
 */
export async function collectWhenQuiet(release: () => void): Promise<() => void> {
  let session: Session;
  try {
    // A Node built without the inspector throws here; such a process keeps V8's own timing.
    const { Session } = await import('node:inspector');
    session = new Session();
  } catch {
    return () => {};
  }
  // Nothing collected yet: the first quiet moment also clears what starting up left.
  let collectedAt = 0;
  let quietTicks = 0;
  let collecting = false;
  let stopped = false;
  let last = cpuUsage();
  const timer = setInterval(() => {
    const used = cpuUsage(last);
    last = cpuUsage();
    quietTicks = used.user + used.system < QUIET_CPU_US ? quietTicks + 1 : 0;
    if (collecting || quietTicks < QUIET_TICKS) return;
    if (getHeapStatistics().total_heap_size - collectedAt < GROWTH_BYTES) return;
    collecting = true;
    session.connect();
    session.post('HeapProfiler.collectGarbage', () =>
      // Disconnecting inside the protocol's own callback deadlocks the inspector: a turn later.
      setImmediate(() => {
        session.disconnect();
        // What `release` frees may be closed once the watching stopped.
        if (!stopped) release();
        collecting = false;
        collectedAt = getHeapStatistics().total_heap_size;
        // The collection's own CPU does not count against the next quiet moment.
        last = cpuUsage();
      }),
    );
  }, TICK_MS).unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
