/** Answers the retrieval actions (`retrieve`, `retrieve_batch`) of every family's task endpoint. */
import type { TaskRecords } from './records.js';

export async function answerRetrieval(
  tasks: TaskRecords,
  tokenId: string,
  family: string,
  body: Record<string, unknown>,
): Promise<unknown> {
  if (body.action === 'retrieve') return tasks.retrieve(tokenId, family, body.id as string);
  if (Array.isArray(body.ids)) return tasks.retrieveMany(tokenId, family, body.ids as string[]);
  return tasks.list(tokenId, family, {
    limit: body.limit as number | undefined,
    offset: body.offset as number | undefined,
    createdAtMin: body.created_at_min as number | undefined,
    createdAtMax: body.created_at_max as number | undefined,
  });
}
