/**
 * The identity registry (DECISIONS section 10) as the operator keeps it. Lists mask names and
 * numbers (`张*`, `1101**********1234`); an identity's id is the keyed hash its row is found by,
 * which says nothing of the person.
 */
import type { IdentityRegistry } from '../providers/identity/registry.js';
import { ServiceError } from '../errors.js';
import { audit, type Actor } from './audit.js';
import type { Db } from '../store/database.js';
import { iso, notFound } from './values.js';

export interface IdentityRow {
  id: string;
  name: string;
  id_number: string;
  portrait: boolean;
  enrolled_at: string | null;
  updated_at: string | null;
}

/** The first character of a name, the rest starred. */
export function maskName(name: string): string {
  const chars = [...name];
  return chars.length <= 1 ? '*' : `${chars[0]}${'*'.repeat(chars.length - 1)}`;
}

/** The first four and last four characters of a number, the rest starred. */
export function maskNumber(number: string): string {
  return number.length <= 8
    ? '*'.repeat(number.length)
    : `${number.slice(0, 4)}${'*'.repeat(number.length - 8)}${number.slice(-4)}`;
}

export class IdentityAdmin {
  constructor(private readonly registry: IdentityRegistry) {}

  async list(): Promise<IdentityRow[]> {
    return (await this.registry.list()).map((identity) => ({
      id: this.registry.idOf(identity.id_number),
      name: maskName(identity.name),
      id_number: maskNumber(identity.id_number),
      portrait: identity.portrait !== undefined,
      enrolled_at: iso(identity.enrolled_at),
      updated_at: iso(identity.updated_at),
    }));
  }

  private async row(id: string): Promise<IdentityRow> {
    const found = (await this.list()).find((row) => row.id === id);
    if (!found) throw notFound(`identity ${id}`);
    return found;
  }

  async enroll(
    spec: { name: string; id_number: string; portrait?: Buffer },
    actor: Actor,
  ): Promise<IdentityRow> {
    const id = this.registry.idOf(spec.id_number);
    if (!(await this.registry.enroll(spec, (trx) => audit(trx, actor, 'identity.enroll', id))))
      throw new ServiceError('conflict', 'id_number: an identity with this number is already enrolled', {
        details: [{ field: 'id_number', rule: 'is already enrolled' }],
      });
    return this.row(id);
  }

  async update(
    id: string,
    change: { name?: string; portrait?: Buffer | null },
    actor: Actor,
  ): Promise<IdentityRow> {
    const number = await this.registry.numberOf(id);
    const audited = (trx: Db) =>
      audit(trx, actor, 'identity.update', id, {
        name: change.name !== undefined,
        portrait: change.portrait !== undefined,
      });
    if (number === undefined || !(await this.registry.update(number, change, audited)))
      throw notFound(`identity ${id}`);
    return this.row(id);
  }

  async remove(id: string, actor: Actor): Promise<{ id: string; removed: true }> {
    const number = await this.registry.numberOf(id);
    const audited = (trx: Db) => audit(trx, actor, 'identity.remove', id);
    if (number === undefined || !(await this.registry.remove(number, audited)))
      throw notFound(`identity ${id}`);
    return { id, removed: true };
  }
}
