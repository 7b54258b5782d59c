/**
 * The tokens whose calls lately found a channel's account at fault. A channel is disabled for
 * every client on what calls find only once the calls of several different tokens found it within
 * the window: one token is one witness however many calls it makes, so that no single client,
 * whatever it sends, can take a channel away from the others.
 */
export class FaultWitnesses {
  /** Per channel, each witness's token and when it last saw the fault, oldest first. */
  private readonly seen = new Map<string, Map<string, number>>();

  constructor(
    /** Different tokens needed. */
    private readonly needed: number,
    private readonly windowMs: number,
  ) {}

  /**
   * Records that a call of `token` found `channel`'s account at fault; answers how many different
   * tokens did within the window when that is enough, and forgets them (the channel is then
   * disabled, and a later fault needs witnesses of its own), else undefined.
   */
  saw(channel: string, token: string, now = Date.now()): number | undefined {
    let tokens = this.seen.get(channel);
    if (!tokens) this.seen.set(channel, (tokens = new Map()));
    // Re-inserted, so that the map stays in order of time.
    tokens.delete(token);
    tokens.set(token, now);
    for (const [old, at] of tokens) {
      // Past the window, or more than are needed: kept no longer, so that the map stays small.
      if (at > now - this.windowMs && tokens.size <= this.needed) break;
      tokens.delete(old);
    }
    if (tokens.size < this.needed) return undefined;
    this.seen.delete(channel);
    return tokens.size;
  }
}
