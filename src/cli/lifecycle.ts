/** Clean shutdown on SIGINT/SIGTERM for the long-running commands (`serve`, `worker`). */
import type { Logger } from 'pino';

export function stopOnSignals(log: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => onSignal('SIGINT'));
  process.once('SIGTERM', () => onSignal('SIGTERM'));
}
