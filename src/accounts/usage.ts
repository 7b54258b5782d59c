/** Usage records: one per authenticated request, for billing reports and audits. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../store/database.js';

export interface UsageRecord {
  tokenId: string;
  operation: string;
  model: string | null;
  action: string | null;
  credits: number;
  status: number;
  latencyMs: number;
  traceId: string;
}

export class Usage {
  constructor(private readonly db: Db) {}

  async record(entry: UsageRecord): Promise<void> {
    await this.db
      .insertInto('usage')
      .values({
        id: randomUUID(),
        token_id: entry.tokenId,
        operation: entry.operation,
        model: entry.model,
        action: entry.action,
        credits: entry.credits,
        status: entry.status,
        latency_ms: entry.latencyMs,
        trace_id: entry.traceId,
        created_at: Date.now(),
      })
      .execute();
  }

  async forToken(tokenId: string): Promise<UsageRecord[]> {
    const rows = await this.db
      .selectFrom('usage')
      .selectAll()
      .where('token_id', '=', tokenId)
      .orderBy('created_at')
      .execute();
    return rows.map((r) => ({
      tokenId: r.token_id,
      operation: r.operation,
      model: r.model,
      action: r.action,
      credits: Number(r.credits),
      status: r.status,
      latencyMs: r.latency_ms,
      traceId: r.trace_id,
    }));
  }
}
