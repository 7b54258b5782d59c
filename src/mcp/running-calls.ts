/**
 * The tool calls running in this process, so that a client's `notifications/cancelled` (which
 * arrives as a request of its own, to a fresh MCP server) reaches the call it names here at once,
 * even before its task exists. A call is known by its token and its key, made from its MCP
 * session id and JSON-RPC id: request ids are unique only within one client's session, and two
 * clients may share a token. The key is also the idempotency key of the task the call submits,
 * by which a cancellation reaching another node finds the task (calls.ts cancelCall).
 */
import { createHash } from 'node:crypto';

/** A call's key: a digest, since JSON-RPC ids may be any string and idempotency keys may not. */
export function callKeyOf(sessionId: string, requestId: string | number): string {
  const digest = createHash('sha256')
    .update(JSON.stringify([sessionId, requestId]))
    .digest('base64url');
  return `mcp-${digest}`;
}

export class RunningCalls {
  private readonly calls = new Map<string, AbortController>();

  /** A call starts: its signal is aborted by a cancellation; `end` forgets it. */
  start(tokenId: string, callKey: string): { signal: AbortSignal; end: () => void } {
    const key = `${tokenId} ${callKey}`;
    const controller = new AbortController();
    this.calls.set(key, controller);
    return {
      signal: controller.signal,
      end: () => {
        if (this.calls.get(key) === controller) this.calls.delete(key);
      },
    };
  }

  cancel(tokenId: string, callKey: string): void {
    this.calls.get(`${tokenId} ${callKey}`)?.abort();
  }
}
