/**
 * The operator's side of the service, one layer that both the admin API (routes.ts) and the
 * command line call: tokens and credits, usage, the request log, the ledger, tasks, the identity
 * registry, channels, the overview and the audit of every action. Each action names its actor
 * (the admin token's name, or `cli`).
 */
import type { Config } from '../config/index.js';
import type { Db } from '../store/database.js';
import type { Token, Tokens } from '../accounts/tokens.js';
import type { ChannelBoard } from '../providers/channel-board.js';
import { IdentityRegistry } from '../providers/identity/registry.js';
import { loadIdentityKey } from '../providers/identity/identity-key.js';
import { auditLog } from './audit.js';
import { ChannelAdmin } from './channels.js';
import type { ChannelHealth, LocalProbe } from '../watchers/channel-health.js';
import { IdentityAdmin } from './identities.js';
import { CodeAdmin } from './codes.js';
import { ledgerEntries } from './ledger-view.js';
import { overview } from './overview.js';
import { requestLog, type RequestQuery } from './request-log.js';
import { TaskAdmin, type TaskControls, type TaskQuery } from './task-admin.js';
import { TokenAdmin } from './tokens.js';
import { AccountAdmin, windowRecords } from './accounts.js';
import { usageCsv, usageReport, type Group, type UsageQuery } from './usage-report.js';
import { dayOf } from '../accounts/usage-days.js';
import { invalid, iso } from './values.js';
import { ServiceError } from '../errors.js';
import { settingsOf } from './settings.js';
import { sql } from 'kysely';

export interface AdminParts {
  config: Config;
  db: Db;
  tokens: Tokens;
  /**
   * This node's usage rows not yet written (they go in batches after the answer): reports flush
   * them first, so that a request answered here is in the log read here right after it.
   */
  usage?: { flush(): Promise<void> };
  board: ChannelBoard;
  localProbe: LocalProbe;
  /** A server's channel health checks; the command line has none. */
  health?: ChannelHealth;
  /** A server's task controls; the command line has none, and cannot cancel. */
  tasks?: TaskControls;
}

/** A filter's token, by name (of a live token) or id, as the field `token` names it. */
type TokenFilter = { token?: string };

export class Admin {
  readonly accounts: AccountAdmin;
  readonly tokens: TokenAdmin;
  readonly tasks: TaskAdmin;
  readonly channels: ChannelAdmin;
  readonly codes: CodeAdmin;
  private identityAdmin: IdentityAdmin | undefined;

  constructor(private readonly parts: AdminParts) {
    const zone = parts.config.billing.time_zone;
    this.accounts = new AccountAdmin(parts.db, parts.tokens, zone);
    this.tokens = new TokenAdmin(
      parts.db,
      parts.tokens,
      this.accounts,
      {
        ratePerSecond: parts.config.tokens.default_rate_per_second,
        concurrency: parts.config.tokens.default_concurrency,
      },
      zone,
    );
    this.tasks = new TaskAdmin(parts.db, this.names, parts.tasks);
    this.channels = new ChannelAdmin(parts.db, parts.board, parts.localProbe, parts.config, parts.health);
    this.codes = new CodeAdmin(parts.db);
  }

  /** Token ids → names, for the rows of reports. */
  readonly names = async (ids: string[]): Promise<Map<string, string>> => {
    if (ids.length === 0) return new Map();
    const rows = await this.parts.db
      .selectFrom('tokens')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r.name]));
  };

  /** The identity registry opens on first use: it reads (or makes) the identity key. */
  get identities(): IdentityAdmin {
    this.identityAdmin ??= new IdentityAdmin(
      new IdentityRegistry(this.parts.db, loadIdentityKey(this.parts.config.identity)),
    );
    return this.identityAdmin;
  }

  private async tokenId(filter: TokenFilter): Promise<string | undefined> {
    if (filter.token === undefined) return undefined;
    try {
      return (await this.tokens.find(filter.token)).id;
    } catch (error) {
      // A filter names a field: an unknown token is bad input here, not a missing resource.
      if (error instanceof ServiceError && error.code === 'not_found')
        throw invalid('token', `no token has the id or name ${filter.token}`);
      throw error;
    }
  }

  async usage(query: Omit<UsageQuery, 'tokenId'> & TokenFilter) {
    const tokenId = await this.tokenId(query);
    await this.parts.usage?.flush();
    return usageReport(this.parts.db, { ...query, ...(tokenId ? { tokenId } : {}) }, this.names);
  }

  async usageCsv(query: Omit<UsageQuery, 'tokenId'> & TokenFilter): Promise<string> {
    return usageCsv(await this.usage(query), query.groupBy);
  }

  async requests(query: Omit<RequestQuery, 'tokenId'> & TokenFilter) {
    const tokenId = await this.tokenId(query);
    await this.parts.usage?.flush();
    return requestLog(this.parts.db, { ...query, ...(tokenId ? { tokenId } : {}) }, this.names);
  }

  /** The ledger of an account, named directly or as the one a token spends; overall without either. */
  async ledger(query: TokenFilter & { account?: string; before?: string; limit: number }) {
    const { account, ...rest } = query;
    if (account !== undefined) {
      const accountId = await this.accounts.row(account).then(
        (row) => row.id,
        (error: unknown) => {
          if (error instanceof ServiceError && error.code === 'not_found')
            throw invalid('account', `no account has the id or name ${account}`);
          throw error;
        },
      );
      return ledgerEntries(this.parts.db, { ...rest, accountId }, this.names);
    }
    const tokenId = await this.tokenId(query);
    const accountId = tokenId ? (await this.tokens.find(tokenId)).accountId : undefined;
    return ledgerEntries(this.parts.db, { ...rest, ...(accountId ? { accountId } : {}) }, this.names);
  }

  async taskList(query: Omit<TaskQuery, 'tokenId'> & TokenFilter) {
    const tokenId = await this.tokenId(query);
    return this.tasks.list({ ...query, ...(tokenId ? { tokenId } : {}) });
  }

  async overview() {
    return overview(this.parts.db, await this.channels.list());
  }

  audit(query: { before?: string; limit: number }) {
    return auditLog(this.parts.db, query);
  }

  settings() {
    return settingsOf(this.parts.config);
  }

  /** What a client token may know of itself (`GET /v1/account`). */
  async account(token: Token) {
    await this.parts.usage?.flush();
    const today = await this.parts.db
      .selectFrom('usage')
      .select(sql<number>`coalesce(sum(credits), 0)`.as('spent'))
      .where('token_id', '=', token.id)
      .where('created_at', '>=', dayOf(Date.now()))
      .executeTakeFirst();
    const balance = (await this.parts.tokens.balance(token.id)) ?? null;
    return {
      name: token.name,
      account: token.accountName,
      balance,
      unlimited: balance === null,
      // Every window that limits the token: its own, then its account's.
      budgets: await windowRecords(this.parts.db, token.budgets, this.parts.config.billing.time_zone).then(
        (rows) => rows.map((row, i) => ({ owner: token.budgets[i]!.owner.split(':')[0], ...row })),
      ),
      operations: token.operations,
      rate_per_second: token.ratePerSecond,
      concurrency: token.maxConcurrency,
      expires_at: iso(token.expiresAt),
      spent_today: Number(today?.spent ?? 0),
    };
  }

  /** A client token's own usage rows (`GET /v1/account/usage`). */
  async accountUsage(token: Token, query: { from?: number; to?: number; groupBy: Group[] }) {
    await this.parts.usage?.flush();
    return usageReport(this.parts.db, { ...query, tokenId: token.id }, this.names);
  }
}
