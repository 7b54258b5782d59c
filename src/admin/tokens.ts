/**
 * Tokens as an operator sees them: every limit and switch, its account and that account's
 * balance, its own budgets, what it spent and when it was last used, never its secrets (each
 * secret appears only in the answer that makes it). Credits change only through the ledger, with
 * the admin's name and note, on the token's account.
 */
import type { Db } from '../store/database.js';
import { OPERATIONS } from '../contract/table.js';
import { ServiceError } from '../errors.js';
import type { NewToken, Role, Token, TokenChanges, Tokens } from '../accounts/tokens.js';
import type { BudgetRule } from '../accounts/budgets.js';
import { audit, type Actor } from './audit.js';
import { setUnlimited, windowRecords, type AccountAdmin, type WindowRecord } from './accounts.js';
import { spentAndLastUse } from './usage-report.js';
import { expiryOf, iso, invalid, notFound, pageOf, type Page } from './values.js';
import { pageByCreation } from './keyset-page.js';

export interface TokenRecord {
  id: string;
  name: string;
  role: Role;
  operations: string[] | null;
  rate_per_second: number | null;
  concurrency: number | null;
  expires_at: string | null;
  /** The account whose balance the token spends, by name. */
  account: string;
  unlimited: boolean;
  balance: number | null;
  /** The token's own budgets (its account's are on the account). */
  budgets: WindowRecord[];
  spent: number;
  last_used_at: string | null;
  disabled: boolean;
  revoked_at: string | null;
  created_at: string | null;
}

export interface NewTokenSpec {
  name: string;
  role?: Role;
  /** An existing account, by name or id; without one the token gets an account of its own. */
  account?: string;
  credits?: number | null;
  budgets?: BudgetRule[];
  operations?: string[] | null;
  expires_at?: string | null;
  rate_per_second?: number | null;
  concurrency?: number | null;
}

export interface TokenPatch {
  operations?: string[] | null;
  rate_per_second?: number | null;
  concurrency?: number | null;
  expires_at?: string | null;
  budgets?: BudgetRule[] | null;
  unlimited?: boolean;
  disabled?: boolean;
}

/** Operation paths or family names → paths (a family stands for all of its operations). */
export function resolveOperations(field: string, names: string[]): string[] {
  const paths = new Set<string>();
  for (const name of names) {
    const matched = OPERATIONS.filter((o) => o.path === name || o.family === name);
    if (matched.length === 0) {
      const families = [...new Set(OPERATIONS.map((o) => o.family))].join(', ');
      throw invalid(field, `${name} is neither an operation path nor a family (${families})`);
    }
    for (const o of matched) paths.add(o.path);
  }
  return [...paths];
}

export class TokenAdmin {
  constructor(
    private readonly db: Db,
    private readonly tokens: Tokens,
    readonly accounts: AccountAdmin,
    private readonly defaults: { ratePerSecond: number | null; concurrency: number | null },
    /** The billing time zone of budget windows. */
    private readonly zone: string,
  ) {}

  private async records(tokens: Token[]): Promise<TokenRecord[]> {
    const use = await spentAndLastUse(
      this.db,
      tokens.map((t) => t.id),
    );
    const accountIds = [...new Set(tokens.map((t) => t.accountId))];
    const balances = new Map(
      accountIds.length === 0
        ? []
        : (
            await this.db
              .selectFrom('accounts')
              .select(['id', 'credits'])
              .where('id', 'in', accountIds)
              .execute()
          ).map((a) => [a.id, a.credits === null ? null : Number(a.credits)]),
    );
    const budgets = await Promise.all(
      tokens.map((t) =>
        windowRecords(
          this.db,
          t.budgets.filter((b) => b.owner === `token:${t.id}`),
          this.zone,
        ),
      ),
    );
    return tokens.map((t, i) => ({
      id: t.id,
      name: t.name,
      role: t.role,
      operations: t.operations,
      rate_per_second: t.ratePerSecond,
      concurrency: t.maxConcurrency,
      expires_at: iso(t.expiresAt),
      account: t.accountName,
      unlimited: balances.get(t.accountId) === null,
      balance: balances.get(t.accountId) ?? null,
      budgets: budgets[i]!,
      spent: use.get(t.id)?.spent ?? 0,
      last_used_at: iso(use.get(t.id)?.lastUsedAt),
      disabled: t.disabledAt !== null,
      revoked_at: iso(t.revokedAt),
      created_at: iso(t.createdAt),
    }));
  }

  async list(query: { before?: string; limit: number; q?: string }): Promise<Page<TokenRecord>> {
    let select = pageByCreation(this.db.selectFrom('tokens').select('id'), query);
    if (query.q) select = select.where('name', 'like', `%${query.q.replace(/[%_\\]/g, '')}%`);
    const ids = (await select.execute()).map((r) => r.id);
    const byId = new Map((await this.tokens.many(ids)).map((t) => [t.id, t]));
    const tokens = ids.flatMap((id) => byId.get(id) ?? []);
    const page = pageOf(
      tokens,
      query.limit,
      (t) => t,
      (t) => [t.createdAt, t.id],
    );
    return { rows: await this.records(page.rows), next: page.next };
  }

  /** By id, or by the name of a live token (names of live tokens are unique). */
  async find(nameOrId: string): Promise<Token> {
    const byId = await this.tokens.get(nameOrId);
    if (byId) return byId;
    const row = await this.db
      .selectFrom('tokens')
      .select('id')
      .where('name', '=', nameOrId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const token = row && (await this.tokens.get(row.id));
    if (!token) throw notFound(`token with id or name ${nameOrId}`);
    return token;
  }

  private async live(nameOrId: string): Promise<Token> {
    const token = await this.find(nameOrId);
    if (token.revokedAt !== null) throw new ServiceError('conflict', `the token ${token.name} is revoked`);
    return token;
  }

  async get(nameOrId: string): Promise<TokenRecord> {
    return (await this.records([await this.find(nameOrId)]))[0] as TokenRecord;
  }

  async create(
    spec: NewTokenSpec,
    actor: Actor,
  ): Promise<TokenRecord & { token: string; webhook_secret: string }> {
    if (spec.account !== undefined && spec.credits !== undefined)
      throw invalid('credits', 'must be absent with account: the account holds the balance');
    if (spec.account !== undefined && spec.role !== undefined && spec.role !== 'client')
      throw invalid('account', 'is for client tokens: an admin or viewer token spends nothing');
    const accountId = spec.account === undefined ? undefined : (await this.accounts.row(spec.account)).id;
    const created = await this.issue(
      {
        name: spec.name,
        role: spec.role ?? 'client',
        ...(accountId ? { accountId } : { credits: spec.credits ?? null }),
        budgets: spec.budgets ?? null,
        operations: spec.operations ? resolveOperations('operations', spec.operations) : null,
        expiresAt: expiryOf(spec.expires_at) ?? null,
        ratePerSecond:
          spec.rate_per_second === undefined ? this.defaults.ratePerSecond : spec.rate_per_second,
        maxConcurrency: spec.concurrency === undefined ? this.defaults.concurrency : spec.concurrency,
      },
      actor,
    );
    const [record] = await this.records([created.token]);
    return { ...(record as TokenRecord), token: created.secret, webhook_secret: created.token.webhookSecret };
  }

  /**
   * Creates a token with its audit record, in one transaction. The command line's `token create`
   * comes here too, with its own flags already read.
   */
  async issue(spec: NewToken, actor: Actor): Promise<{ token: Token; secret: string }> {
    return this.tokens.create(spec, (trx, token) =>
      audit(trx, actor, 'token.create', token.name, {
        id: token.id,
        role: token.role,
        account: token.accountName,
        credits: spec.credits ?? null,
      }),
    );
  }

  async update(nameOrId: string, patch: TokenPatch, actor: Actor): Promise<TokenRecord> {
    const token = await this.live(nameOrId);
    const changes: TokenChanges = {};
    if (patch.operations !== undefined)
      changes.operations =
        patch.operations === null ? null : resolveOperations('operations', patch.operations);
    if (patch.expires_at !== undefined) changes.expiresAt = expiryOf(patch.expires_at) ?? null;
    if (patch.rate_per_second !== undefined) changes.ratePerSecond = patch.rate_per_second;
    if (patch.concurrency !== undefined) changes.maxConcurrency = patch.concurrency;
    if (patch.disabled !== undefined) changes.disabled = patch.disabled;
    if (patch.budgets !== undefined) changes.budgets = patch.budgets;
    const unlimited = patch.unlimited !== undefined && patch.unlimited !== token.unlimited;
    const updated = await this.tokens.update(token.id, changes, async (trx) => {
      // A token's balance is its account's: making it unlimited makes the account so.
      if (unlimited) {
        await setUnlimited(trx, token.accountId, patch.unlimited as boolean, actor);
        await this.tokens.accountChanged(trx, token.accountId);
      }
      await audit(trx, actor, 'token.update', token.name, { id: token.id, ...patch });
    });
    if (!updated) throw notFound(`token with id or name ${nameOrId}`);
    return this.get(token.id);
  }

  async revoke(nameOrId: string, actor: Actor): Promise<TokenRecord> {
    const token = await this.live(nameOrId);
    await this.tokens.revoke(token.id, (trx) =>
      audit(trx, actor, 'token.revoke', token.name, { id: token.id }),
    );
    return this.get(token.id);
  }

  async rotateSecret(
    nameOrId: string,
    actor: Actor,
  ): Promise<{ id: string; name: string; webhook_secret: string }> {
    const token = await this.live(nameOrId);
    const secret = await this.tokens.rotateWebhookSecret(token.id, (trx) =>
      audit(trx, actor, 'token.rotate_secret', token.name, { id: token.id }),
    );
    if (!secret) throw notFound(`token with id or name ${nameOrId}`);
    return { id: token.id, name: token.name, webhook_secret: secret };
  }

  async regenerate(nameOrId: string, actor: Actor): Promise<{ id: string; name: string; token: string }> {
    const token = await this.live(nameOrId);
    const secret = await this.tokens.regenerate(token.id, (trx) =>
      audit(trx, actor, 'token.regenerate', token.name, { id: token.id }),
    );
    if (!secret) throw notFound(`token with id or name ${nameOrId}`);
    return { id: token.id, name: token.name, token: secret };
  }

  /**
   * A top-up (delta > 0) or a deduction (delta < 0) of the token's account, through the ledger,
   * with the actor and the note; never below zero (409 `conflict`). Answers the new balance.
   */
  async credit(
    nameOrId: string,
    delta: number,
    note: string | undefined,
    actor: Actor,
  ): Promise<{ id: string; name: string; balance: number; delta: number }> {
    const token = await this.live(nameOrId);
    const done = await this.accounts.credit(token.accountId, delta, note, actor, {
      action: 'token.credits',
      name: token.name,
    });
    return { id: token.id, name: token.name, balance: done.balance, delta };
  }
}
