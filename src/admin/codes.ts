/**
 * Redemption codes on the operator's side (accounts/redemption-codes.ts does the work): make a
 * batch, whose codes this answer alone shows; list the batches with the uses taken; disable what
 * is left of one. Each change is audited.
 */
import type { Db } from '../store/database.js';
import { batches, disableBatch, makeBatch, type Batch, type NewBatch } from '../accounts/redemption-codes.js';
import { audit, type Actor } from './audit.js';
import { iso, notFound } from './values.js';

/** A batch as the admin API shows it. */
export interface BatchRecord {
  batch: string;
  credits: number;
  count: number;
  uses_per_code: number;
  used: number;
  expires_at: string | null;
  note: string | null;
  created_by: string;
  created_at: string | null;
  disabled_at: string | null;
}

function recordOf(batch: Batch): BatchRecord {
  return {
    batch: batch.id,
    credits: Number(batch.credits),
    count: Number(batch.count),
    uses_per_code: Number(batch.uses_per_code),
    used: batch.used,
    expires_at: iso(batch.expires_at),
    note: batch.note,
    created_by: batch.created_by,
    created_at: iso(batch.created_at),
    disabled_at: iso(batch.disabled_at),
  };
}

export class CodeAdmin {
  constructor(private readonly db: Db) {}

  async create(spec: NewBatch, actor: Actor): Promise<{ batch: string; codes: string[] }> {
    const made = await makeBatch(this.db, spec, actor.name);
    await audit(this.db, actor, 'codes.create', made.batch, {
      credits: spec.credits,
      count: spec.count,
      uses: spec.uses,
    });
    return made;
  }

  async list(batch?: string): Promise<{ rows: BatchRecord[]; next: null }> {
    return { rows: (await batches(this.db, batch)).map(recordOf), next: null };
  }

  async disable(batch: string, actor: Actor): Promise<BatchRecord> {
    const disabled = await disableBatch(this.db, batch);
    if (!disabled) throw notFound(`code batch ${batch}`);
    await audit(this.db, actor, 'codes.disable', batch);
    return recordOf(disabled);
  }
}
