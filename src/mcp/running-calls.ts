/**
 * The tool calls running in this process, so that a client's `notifications/cancelled` (which
 * arrives as a request of its own, to a fresh MCP server) reaches the call it names. A call is
 * known by its token, its MCP session id and its JSON-RPC id: request ids are unique only within
 * one client's session, and two clients may share a token. Behind several nodes a cancellation
 * reaches its call where the nodes are chosen by the `mcp-session-id` header (deployment.md).
 */
export class RunningCalls {
  private readonly calls = new Map<string, AbortController>();

  /** A call starts: its signal is aborted by a cancellation; `end` forgets it. */
  start(key: string): { signal: AbortSignal; end: () => void } {
    const controller = new AbortController();
    this.calls.set(key, controller);
    return {
      signal: controller.signal,
      end: () => {
        if (this.calls.get(key) === controller) this.calls.delete(key);
      },
    };
  }

  cancel(key: string): void {
    this.calls.get(key)?.abort();
  }
}

export function callKey(tokenId: string, sessionId: string, requestId: string | number): string {
  return JSON.stringify([tokenId, sessionId, requestId]);
}
