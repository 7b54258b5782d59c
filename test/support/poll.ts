import type { TestServer } from './server.js';

/** Retrieves a task until `done` says so (or fails after `ms`). */
export async function pollTask(
  server: TestServer,
  family: string,
  id: string,
  token: string,
  done: (task: Record<string, unknown>) => boolean = (t) =>
    ['succeeded', 'failed', 'expired'].includes(String(t.state)),
  ms = 10_000,
): Promise<Record<string, unknown>> {
  const until = Date.now() + ms;
  for (;;) {
    const answer = await server.post(`/${family}/tasks`, { action: 'retrieve', id }, token);
    if (answer.status === 200 && done(answer.body)) return answer.body;
    if (Date.now() > until) throw new Error(`task ${id} still ${JSON.stringify(answer.body)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Reads an ndjson response to its end, one parsed object per line. */
export async function ndjsonLines(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Asks `probe` every 20 ms until it answers something truthy, which is returned; fails after `ms`. */
export async function until<T>(what: string, probe: () => Promise<T> | T, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
