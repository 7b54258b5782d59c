import { randomUUID } from 'node:crypto';
import type { Services } from '../../src/services.js';

/** Stores a finished task for a token, as the task runner will, to read it back through the API. */
export async function storeTask(
  services: Services,
  tokenId: string,
  family: string,
  createdAtMs = Date.now(),
): Promise<string> {
  const id = randomUUID();
  await services.db
    .insertInto('tasks')
    .values({
      id,
      token_id: tokenId,
      family,
      operation: `/${family}/x`,
      trace_id: id,
      request: JSON.stringify({ prompt: 'a lighthouse' }),
      response: JSON.stringify({ success: true, task_id: id, trace_id: id, data: [] }),
      state: 'succeeded',
      credits: 0,
      callback_url: null,
      callback_state: null,
      callback_last_status: null,
      created_at: createdAtMs,
      started_at: createdAtMs + 10,
      finished_at: createdAtMs + 1500,
    })
    .execute();
  return id;
}
