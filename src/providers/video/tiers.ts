/**
 * `service_tier: flex` (dance): lower priority. Within a worker, a flex video starts only when no
 * default-tier video is waiting or rendering; default videos never wait for flex ones.
 */
export class TierGate {
  private defaults = 0;
  private readonly waiting: (() => void)[] = [];

  /** Resolves when the video may start; the function it gives ends its turn. */
  async enter(flex: boolean, signal: AbortSignal): Promise<() => void> {
    if (!flex) {
      this.defaults += 1;
      return () => {
        this.defaults -= 1;
        if (this.defaults === 0) this.waiting.splice(0).forEach((wake) => wake());
      };
    }
    while (this.defaults > 0) {
      signal.throwIfAborted();
      await new Promise<void>((resolve) => {
        this.waiting.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
    }
    return () => undefined;
  }
}
