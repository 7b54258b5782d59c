/**
 * API tokens. A token is 256 random bits shown once; the database keeps its SHA-256 only, so a
 * leaked database yields no usable token. Each token carries its own permissions and limits and
 * the secret that signs its callbacks, and spends the balance of the account it belongs to.
 *
 * Authentication keeps a token for `cacheMs` after reading it, so that a busy client does not
 * cost a query per request. A revocation in this process takes effect at once; one made by
 * another process takes effect within `cacheMs`. Expiry is checked on every request.
 */
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../store/database.js';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, TokenTable } from '../store/tables.js';
import { ServiceError } from '../errors.js';
import { budgetsOf, type Budget, type BudgetRule } from './budgets.js';
import { openAccount } from './account-rows.js';
import { isUniqueViolation } from '../store/unique-violation.js';

const TOKEN_PREFIX = 'sy_';

/**
 * A client token calls operations; an admin token calls `/admin/*` only, and a viewer token reads
 * there and changes nothing.
 */
export type Role = 'client' | 'admin' | 'viewer';

/** Whether the role is one of the operator's: it calls `/admin/*`, not operations. */
export const isOperator = (role: Role) => role !== 'client';

export interface Token {
  id: string;
  name: string;
  role: Role;
  /** Operation paths this token may call; null for all. */
  operations: string[] | null;
  expiresAt: number | null;
  accountId: string;
  accountName: string;
  /** The account has no balance. */
  unlimited: boolean;
  /** The token's own budgets, then its account's. */
  budgets: Budget[];
  ratePerSecond: number | null;
  maxConcurrency: number | null;
  webhookSecret: string;
  createdAt: number;
  revokedAt: number | null;
  /** When an operator disabled it (reversibly); null while it may be used. */
  disabledAt: number | null;
}

export interface NewToken {
  name: string;
  role?: Role;
  operations?: string[] | null;
  expiresAt?: number | null;
  /** The account it spends; without one it gets an account of its own, holding `credits`. */
  accountId?: string;
  credits?: number | null;
  budgets?: BudgetRule[] | null;
  ratePerSecond?: number | null;
  maxConcurrency?: number | null;
}

export function hashOf(token: string): string {
  // The one-shot hash: a Hash object per request cost more than the hashing.
  return hash('sha256', token, 'hex');
}

function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The limits and switches an operator may change on an existing token. */
export interface TokenChanges {
  operations?: string[] | null;
  expiresAt?: number | null;
  ratePerSecond?: number | null;
  maxConcurrency?: number | null;
  budgets?: BudgetRule[] | null;
  disabled?: boolean;
}

/** A token's row with what it needs of its account's. */
type TokenRow = Selectable<TokenTable> & {
  account_name: string;
  account_credits: number | null;
  account_budgets: string | null;
};

function fromRow(row: TokenRow): Token {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    operations: row.operations === null ? null : (JSON.parse(row.operations) as string[]),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    accountId: row.account_id,
    accountName: row.account_name,
    unlimited: row.account_credits === null,
    budgets: [
      ...budgetsOf(`token:${row.id}`, `token ${row.name}`, row.budgets),
      ...budgetsOf(`account:${row.account_id}`, `account ${row.account_name}`, row.account_budgets),
    ],
    ratePerSecond: row.rate_per_second,
    maxConcurrency: row.max_concurrency,
    webhookSecret: row.webhook_secret,
    createdAt: Number(row.created_at),
    revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
    disabledAt: row.disabled_at === null || row.disabled_at === undefined ? null : Number(row.disabled_at),
  };
}

function newSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** Enough for every active client of a large deployment; past it the cache starts over. */
const CACHE_LIMIT = 10_000;

/** More writes of a token's change, in its transaction (an admin's change: its audit record). */
export type Within = (trx: Kysely<Database>) => Promise<void>;

/** Tokens with their accounts' names, balances' presence and budgets. */
function selectTokens(db: Kysely<Database>) {
  return db
    .selectFrom('tokens')
    .innerJoin('accounts', 'accounts.id', 'tokens.account_id')
    .selectAll('tokens')
    .select([
      'accounts.name as account_name',
      'accounts.credits as account_credits',
      'accounts.budgets as account_budgets',
    ]);
}

export class Tokens {
  private readonly cache = new Map<string, { token: Token; until: number }>();
  /** Tells the other nodes that a token changed (through Redis, services.ts); none embedded. */
  announce: () => void = () => undefined;

  constructor(
    private readonly db: Db,
    private readonly cacheMs = 0,
  ) {}

  /**
   * Creates a token; the returned `secret` is the only copy of the bearer token. `within` adds
   * writes to the creation's transaction (an admin's audit record).
   */
  async create(
    spec: NewToken,
    within?: (trx: Kysely<Database>, token: Token) => Promise<void>,
  ): Promise<{ token: Token; secret: string }> {
    const secret = newSecret();
    const id = randomUUID();
    const row: Selectable<TokenTable> = {
      id,
      name: spec.name,
      role: spec.role ?? 'client',
      disabled_at: null,
      changed_at: null,
      token_hash: hashOf(secret),
      operations: spec.operations ? JSON.stringify(spec.operations) : null,
      expires_at: spec.expiresAt ?? null,
      account_id: spec.accountId ?? id,
      budgets: spec.budgets?.length ? JSON.stringify(spec.budgets) : null,
      rate_per_second: spec.ratePerSecond ?? null,
      max_concurrency: spec.maxConcurrency ?? null,
      webhook_secret: newWebhookSecret(),
      created_at: Date.now(),
      revoked_at: null,
    };
    const token = await this.db.transaction().execute(async (trx) => {
      // A token named for no account gets one of its own, with its id, named like it where free.
      if (spec.accountId === undefined)
        await openAccount(trx, {
          id,
          name: spec.name,
          credits: spec.credits ?? null,
          fallbackName: true,
          openedBy: id,
        });
      await trx
        .insertInto('tokens')
        .values(row as Insertable<TokenTable>)
        .execute()
        .catch((error: unknown) => {
          // The database's unique index on live names decides, so that two nodes cannot both win.
          if (isUniqueViolation(error))
            throw new ServiceError('conflict', `name: a live token is already called ${spec.name}`);
          throw error;
        });
      const made = await selectTokens(trx).where('tokens.id', '=', id).executeTakeFirstOrThrow();
      await within?.(trx, fromRow(made));
      return fromRow(made);
    });
    return { token, secret };
  }

  async list(): Promise<Token[]> {
    const rows = await selectTokens(this.db).orderBy('tokens.created_at').execute();
    return rows.map(fromRow);
  }

  /** The tokens with these ids, in no particular order. */
  async many(ids: string[]): Promise<Token[]> {
    if (ids.length === 0) return [];
    const rows = await selectTokens(this.db).where('tokens.id', 'in', ids).execute();
    return rows.map(fromRow);
  }

  async get(id: string): Promise<Token | undefined> {
    const row = await selectTokens(this.db).where('tokens.id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }

  /** The balance a token spends (its account's): null when unlimited, undefined for no such token. */
  async balance(id: string): Promise<number | null | undefined> {
    const row = await this.db
      .selectFrom('tokens')
      .innerJoin('accounts', 'accounts.id', 'tokens.account_id')
      .select('accounts.credits')
      .where('tokens.id', '=', id)
      .executeTakeFirst();
    if (!row) return undefined;
    return row.credits === null ? null : Number(row.credits);
  }

  /** Revokes by id or by name; answers how many tokens were revoked. */
  async revoke(idOrName: string, within?: Within): Promise<number> {
    return this.changed(
      (db) =>
        db
          .updateTable('tokens')
          .set({ revoked_at: Date.now(), changed_at: Date.now() })
          .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
          .where('revoked_at', 'is', null)
          .executeTakeFirst(),
      within,
    );
  }

  /** Changes the limits and switches of a live token; false when there is none with that id. */
  async update(id: string, changes: TokenChanges, within?: Within): Promise<boolean> {
    const set: Partial<Selectable<TokenTable>> = { changed_at: Date.now() };
    if (changes.operations !== undefined)
      set.operations = changes.operations === null ? null : JSON.stringify(changes.operations);
    if (changes.expiresAt !== undefined) set.expires_at = changes.expiresAt;
    if (changes.ratePerSecond !== undefined) set.rate_per_second = changes.ratePerSecond;
    if (changes.maxConcurrency !== undefined) set.max_concurrency = changes.maxConcurrency;
    if (changes.budgets !== undefined)
      set.budgets = changes.budgets?.length ? JSON.stringify(changes.budgets) : null;
    if (changes.disabled !== undefined) set.disabled_at = changes.disabled ? Date.now() : null;
    const updated = await this.changed(
      (db) =>
        db
          .updateTable('tokens')
          .set(set)
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst(),
      within,
    );
    return updated === 1;
  }

  /**
   * A new bearer secret for the same token (its balance, limits and history stay with its id);
   * the old secret is refused from now on. Undefined when there is no live token with that id.
   */
  async regenerate(id: string, within?: Within): Promise<string | undefined> {
    const secret = newSecret();
    const updated = await this.changed(
      (db) =>
        db
          .updateTable('tokens')
          .set({ token_hash: hashOf(secret), changed_at: Date.now() })
          .where('id', '=', id)
          .where('revoked_at', 'is', null)
          .executeTakeFirst(),
      within,
    );
    return updated === 1 ? secret : undefined;
  }

  async rotateWebhookSecret(id: string, within?: Within): Promise<string | undefined> {
    const secret = newWebhookSecret();
    const updated = await this.changed(
      (db) =>
        db
          .updateTable('tokens')
          .set({ webhook_secret: secret, changed_at: Date.now() })
          .where('id', '=', id)
          .executeTakeFirst(),
      within,
    );
    return updated === 1 ? secret : undefined;
  }

  /**
   * Marks the tokens of an account changed, inside the account's change (`trx`): nodes read their
   * account's balance kind and budgets again. Call `forgetAll` once it committed.
   */
  async accountChanged(trx: Kysely<Database>, accountId: string): Promise<void> {
    this.cache.clear();
    await trx
      .updateTable('tokens')
      .set({ changed_at: Date.now() })
      .where('account_id', '=', accountId)
      .execute();
  }

  /** Forgets the cached tokens here and on the other nodes: an account of theirs changed. */
  forgetAll(): void {
    this.cache.clear();
    this.announce();
  }

  /**
   * Runs a write of tokens with this node's cache cleared around it (a request between the first
   * clear and the commit may have cached the token again), then tells the other nodes, which
   * otherwise see it at their next poll. Answers how many tokens it changed. What `within` writes
   * is in the same transaction, and only where a token changed.
   */
  private async changed(
    write: (db: Kysely<Database>) => Promise<{ numUpdatedRows: bigint }>,
    within?: Within,
  ): Promise<number> {
    this.cache.clear();
    const result = within
      ? await this.db.transaction().execute(async (trx) => {
          const done = await write(trx);
          if (Number(done.numUpdatedRows) > 0) await within(trx);
          return done;
        })
      : await write(this.db);
    this.cache.clear();
    const count = Number(result.numUpdatedRows);
    if (count > 0) this.announce();
    return count;
  }

  /** Forgets every cached token: one changed on another node. */
  forget(): void {
    this.cache.clear();
  }

  private watcher: NodeJS.Timeout | undefined;
  private seenChange = 0;

  /**
   * Polls when any token last changed, every `everyMs`, and forgets the cached tokens when that
   * moved: a revocation or an edit made anywhere (another node, the CLI's own process) holds here
   * within `everyMs` plus one query, whatever `cacheMs` says.
   */
  async watchChanges(everyMs: number, onError: (error: unknown) => void): Promise<void> {
    this.seenChange = await this.latestChange();
    this.watcher = setInterval(() => {
      this.latestChange().then((latest) => {
        if (latest === this.seenChange) return;
        this.seenChange = latest;
        this.forget();
      }, onError);
    }, everyMs).unref();
  }

  stopWatching(): void {
    clearInterval(this.watcher);
  }

  private async latestChange(): Promise<number> {
    const row = await this.db
      .selectFrom('tokens')
      .select((eb) => eb.fn.max('changed_at').as('latest'))
      .executeTakeFirst();
    return Number(row?.latest ?? 0);
  }

  /** The token behind an `Authorization` header value, or the 401 that explains why not. */
  async authenticate(header: string | undefined, now = Date.now()): Promise<Token> {
    const match = header ? /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header) : null;
    if (!match) {
      throw new ServiceError('no_token', 'the Authorization header must carry "Bearer <token>"');
    }
    return this.authenticateHash(hashOf(match[1] as string), now);
  }

  /** The token with this hash (a console session keeps no more), checked as a bearer token is. */
  async authenticateHash(hash: string, now = Date.now()): Promise<Token> {
    const token = await this.byHash(hash, now);
    if (!token) throw new ServiceError('invalid_token', 'the token is unknown or has been revoked');
    if (token.disabledAt !== null) throw new ServiceError('invalid_token', 'the token is disabled');
    if (token.expiresAt !== null && token.expiresAt <= now) {
      throw new ServiceError(
        'token_expired',
        `the token expired at ${new Date(token.expiresAt).toISOString()}`,
      );
    }
    return token;
  }

  /** The active (not revoked) token with this hash; unknown hashes are never cached. */
  private async byHash(hash: string, now: number): Promise<Token | undefined> {
    const cached = this.cache.get(hash);
    if (cached && cached.until > now) return cached.token;
    const row = await selectTokens(this.db).where('tokens.token_hash', '=', hash).executeTakeFirst();
    // The lookup is by hash; the comparison keeps the final check constant-time anyway.
    if (!row || !timingSafeEqual(Buffer.from(row.token_hash), Buffer.from(hash)) || row.revoked_at !== null) {
      this.cache.delete(hash);
      return undefined;
    }
    const token = fromRow(row);
    if (this.cacheMs > 0) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(hash, { token, until: now + this.cacheMs });
    }
    return token;
  }
}

/** Whether `token` may call the operation at `path`. */
export function mayCall(token: Token, path: string): boolean {
  return token.operations === null || token.operations.includes(path);
}
