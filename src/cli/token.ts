/**
 * `switchyard token create|list|revoke|rotate-secret`: token administration on the database.
 * Changes go through the admin API's own service layer, so that each is written with its audit
 * record (actor `cli`) in one transaction, as over HTTP.
 */
import { Command, type Option } from 'commander';
import { loadConfig } from '../config/index.js';
import { openDatabase } from '../store/database.js';
import { Tokens, type Token } from '../accounts/tokens.js';
import { OPERATIONS } from '../contract/table.js';
import { tokenAdminCommands } from './admin.js';
import { timeOf } from '../admin/values.js';
import { TokenAdmin } from '../admin/tokens.js';
import { AccountAdmin } from '../admin/accounts.js';
import type { Db } from '../store/database.js';
import { CLI } from '../admin/audit.js';
import { ServiceError } from '../errors.js';

async function withTokens<T>(
  configFile: string | undefined,
  work: (tokens: Tokens, admin: TokenAdmin, db: Db) => Promise<T>,
): Promise<T> {
  const config = loadConfig({ file: configFile });
  const db = await openDatabase(config.database.url);
  try {
    const tokens = new Tokens(db);
    const defaults = {
      ratePerSecond: config.tokens.default_rate_per_second,
      concurrency: config.tokens.default_concurrency,
    };
    const zone = config.billing.time_zone;
    const admin = new TokenAdmin(db, tokens, new AccountAdmin(db, tokens, zone), defaults, zone);
    return await work(tokens, admin, db);
  } catch (error) {
    // The service layer's errors read the same here as over HTTP, field first.
    if (error instanceof ServiceError) throw new Error(error.message);
    throw error;
  } finally {
    await db.destroy();
  }
}

/** `serp,/chatmodel/chat/completions` → paths: a family name stands for all of its operations. */
export function parseOperations(list: string): string[] {
  const paths = new Set<string>();
  for (const item of list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const matched = OPERATIONS.filter((o) => o.path === item || o.family === item);
    if (matched.length === 0) {
      const families = [...new Set(OPERATIONS.map((o) => o.family))].join(', ');
      throw new Error(`--operations: ${item} is neither an operation path nor a family (${families})`);
    }
    for (const o of matched) paths.add(o.path);
  }
  return [...paths];
}

function positive(flag: string, integer: boolean) {
  return (text: string) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
      throw new Error(`${flag}: ${text} is not a ${integer ? 'whole ' : ''}number ≥ 0`);
    }
    return value;
  };
}

/** The balances of the tokens' accounts, null for unlimited. */
async function balancesOf(db: Db, tokens: Token[]): Promise<Map<string, number | null>> {
  const ids = [...new Set(tokens.map((t) => t.accountId))];
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('accounts').select(['id', 'credits']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.credits === null ? null : Number(r.credits)]));
}

function describe(token: Token, balances: Map<string, number | null>) {
  return {
    id: token.id,
    name: token.name,
    role: token.role,
    account: token.accountName,
    operations: token.operations ?? 'all',
    credits: balances.get(token.accountId) ?? 'unlimited',
    rate_per_second: token.ratePerSecond ?? 'unlimited',
    max_concurrency: token.maxConcurrency ?? 'unlimited',
    expires_at: token.expiresAt === null ? null : new Date(token.expiresAt).toISOString(),
    revoked_at: token.revokedAt === null ? null : new Date(token.revokedAt).toISOString(),
    created_at: new Date(token.createdAt).toISOString(),
  };
}

export function tokenCommands(configOption: () => Option): Command {
  const token = new Command('token').description('create, list, edit, top up and revoke API tokens');

  token
    .command('create')
    .description('create a token; prints it once (it is stored hashed)')
    .addOption(configOption())
    .requiredOption('--name <name>', 'a name to recognise the token by')
    .option('--credits <n>', 'credit balance (default: unlimited)', positive('--credits', true))
    .option('--account <name>', 'the account whose balance it spends (default: an account of its own)')
    .option('--operations <list>', 'comma-separated operation paths or families (default: all)')
    .option('--expires-at <time>', 'ISO 8601 time or unix seconds (default: never)')
    .option(
      '--rate <n>',
      'requests per second (default: tokens.default_rate_per_second)',
      positive('--rate', false),
    )
    .option(
      '--concurrency <n>',
      'requests at a time (default: tokens.default_concurrency)',
      positive('--concurrency', true),
    )
    .option('--admin', 'an admin token: it calls /admin/api/v1 only, never operations')
    .option('--viewer', 'with --admin: a viewer, which reads /admin/api/v1 and changes nothing')
    .option('--json', 'print {token, webhook_secret, id, …} as JSON')
    .action(async (flags) => {
      if (flags.viewer && !flags.admin) throw new Error('--viewer: a viewer is an admin token; add --admin');
      const config = loadConfig({ file: flags.config });
      if (flags.account !== undefined && flags.credits !== undefined)
        throw new Error('--credits: the account named by --account holds the balance; top it up there');
      const { created, balances } = await withTokens(flags.config, async (tokens, admin, db) => {
        // Names of live tokens are unique, as over the admin API: `revoke NAME` means one token.
        if ((await tokens.list()).some((t) => t.name === flags.name && t.revokedAt === null))
          throw new Error(`--name: a live token is already called ${flags.name}`);
        const account = flags.account === undefined ? undefined : await admin.accounts.row(flags.account);
        const made = await admin.issue(
          {
            name: flags.name,
            role: flags.admin ? (flags.viewer ? 'viewer' : 'admin') : 'client',
            ...(account ? { accountId: account.id } : { credits: flags.credits ?? null }),
            operations: flags.operations ? parseOperations(flags.operations) : null,
            expiresAt: flags.expiresAt ? (timeOf('--expires-at', flags.expiresAt) as number) : null,
            ratePerSecond: flags.rate ?? config.tokens.default_rate_per_second,
            maxConcurrency: flags.concurrency ?? config.tokens.default_concurrency,
          },
          CLI,
        );
        return { created: made, balances: await balancesOf(db, [made.token]) };
      });
      if (flags.json) {
        const out = {
          token: created.secret,
          webhook_secret: created.token.webhookSecret,
          ...describe(created.token, balances),
        };
        process.stdout.write(`${JSON.stringify(out)}\n`);
      } else {
        process.stdout.write(`${created.secret}\n`);
      }
    });

  token
    .command('list')
    .description('list tokens (never their secrets)')
    .addOption(configOption())
    .option('--json', 'print a JSON array')
    .action(async (flags) => {
      const all = await withTokens(flags.config, async (tokens, _admin, db) => {
        const listed = await tokens.list();
        const balances = await balancesOf(db, listed);
        return listed.map((t) => describe(t, balances));
      });
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(all)}\n`);
        return;
      }
      for (const t of all) {
        const state = t.revoked_at
          ? 'revoked'
          : t.expires_at && Date.parse(t.expires_at) <= Date.now()
            ? 'expired'
            : 'active';
        process.stdout.write(
          `${t.id}  ${t.name}  ${state}  credits=${t.credits}  operations=${t.operations}\n`,
        );
      }
    });

  token
    .command('revoke')
    .description('revoke a token by id, or the live token of a name')
    .addOption(configOption())
    .argument('<id-or-name>')
    .action(async (idOrName: string, flags) => {
      await withTokens(flags.config, (_, admin) => admin.revoke(idOrName, CLI));
      process.stdout.write('revoked 1 token\n');
    });

  token
    .command('rotate-secret')
    .description('replace the webhook secret of a live token; prints the new one')
    .addOption(configOption())
    .argument('<id-or-name>')
    .action(async (idOrName: string, flags) => {
      const rotated = await withTokens(flags.config, (_, admin) => admin.rotateSecret(idOrName, CLI));
      process.stdout.write(`${rotated.webhook_secret}\n`);
    });

  tokenAdminCommands(token, configOption);
  return token;
}
