/**
 * API tokens. A token is 256 random bits shown once; the database keeps its SHA-256 only, so a
 * leaked database yields no usable token. Each token carries its own permissions and limits and
 * the secret that signs its callbacks.
 *
 * Authentication keeps a token for `cacheMs` after reading it, so that a busy client does not
 * cost a query per request. A revocation in this process takes effect at once; one made by
 * another process takes effect within `cacheMs`. Expiry is checked on every request.
 */
import { hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../store/database.js';
import { entryOf } from './ledger.js';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, TokenTable } from '../store/tables.js';
import { ServiceError } from '../errors.js';

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
  credits: number | null;
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
  credits?: number | null;
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
  disabled?: boolean;
}

function fromRow(row: Selectable<TokenTable>): Token {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    operations: row.operations === null ? null : (JSON.parse(row.operations) as string[]),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    credits: row.credits === null ? null : Number(row.credits),
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
    const row: Selectable<TokenTable> = {
      id: randomUUID(),
      name: spec.name,
      role: spec.role ?? 'client',
      disabled_at: null,
      changed_at: null,
      token_hash: hashOf(secret),
      operations: spec.operations ? JSON.stringify(spec.operations) : null,
      expires_at: spec.expiresAt ?? null,
      credits: spec.credits ?? null,
      rate_per_second: spec.ratePerSecond ?? null,
      max_concurrency: spec.maxConcurrency ?? null,
      webhook_secret: newWebhookSecret(),
      created_at: Date.now(),
      revoked_at: null,
    };
    await this.db.transaction().execute(async (trx) => {
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
      // The ledger opens with the balance given at creation.
      if (row.credits !== null && row.credits > 0) {
        const change = {
          tokenId: row.id,
          kind: 'topup',
          delta: row.credits,
          note: 'balance at creation',
        } as const;
        await trx.insertInto('ledger').values(entryOf(change, row.credits)).execute();
      }
      await within?.(trx, fromRow(row));
    });
    return { token: fromRow(row), secret };
  }

  async list(): Promise<Token[]> {
    const rows = await this.db.selectFrom('tokens').selectAll().orderBy('created_at').execute();
    return rows.map(fromRow);
  }

  /** The tokens with these ids, in no particular order. */
  async many(ids: string[]): Promise<Token[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom('tokens').selectAll().where('id', 'in', ids).execute();
    return rows.map(fromRow);
  }

  async get(id: string): Promise<Token | undefined> {
    const row = await this.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
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
    const row = await this.db
      .selectFrom('tokens')
      .selectAll()
      .where('token_hash', '=', hash)
      .executeTakeFirst();
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

/** A unique index refused the row: SQLite's constraint code, or PostgreSQL's 23505. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
