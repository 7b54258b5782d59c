/**
 * The operator's commands over the admin API's own service layer (src/admin), on the database
 * of the configuration: `token update`, `token credits`, `usage`, `requests`, `channels` and
 * `codes`.
 * Each prints a readable table, or JSON with `--json`; actions are audited with the actor `cli`.
 */
import { Command, type Option } from 'commander';
import { loadConfig } from '../config/index.js';
import { openDatabase } from '../store/database.js';
import { Tokens } from '../accounts/tokens.js';
import type { Admin } from '../admin/index.js';
import { CLI } from '../admin/audit.js';
import { GROUPS, type Group } from '../admin/usage-report.js';
import type { StatusFilter } from '../admin/request-log.js';
import { timeOf } from '../admin/values.js';
import { ServiceError } from '../errors.js';
import { table } from './table.js';

export async function withAdmin<T>(
  configFile: string | undefined,
  work: (admin: Admin) => Promise<T>,
): Promise<T> {
  const config = loadConfig({ file: configFile });
  // The admin layer and the channels it reports on load with these commands only: every other
  // command starts without them, a tenth of a second sooner.
  const [{ Admin }, { ChannelBoard, channelEntries }, { reloadStates }, { checkLocalEngine }] =
    await Promise.all([
      import('../admin/index.js'),
      import('../providers/channel-board.js'),
      import('../admin/channels.js'),
      import('../watchers/local-probes.js'),
    ]);
  const db = await openDatabase(config.database.url);
  try {
    const board = new ChannelBoard(channelEntries(config));
    await reloadStates(db, board);
    const admin = new Admin({
      config,
      db,
      tokens: new Tokens(db),
      board,
      // What the engines need is checked on this machine, which is the server's when run beside it.
      localProbe: (entry) =>
        checkLocalEngine(entry, config.channels.find((c) => c.name === entry.id)?.model_path),
    });
    return await work(admin);
  } catch (error) {
    // The service layer's errors read the same here as over HTTP, field first.
    if (error instanceof ServiceError) throw new Error(error.message);
    throw error;
  } finally {
    await db.destroy();
  }
}

export function print(json: boolean, value: unknown, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : text());
}

export function number(flag: string, integer: boolean, min = 0) {
  return (text: string) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < min || (integer && !Number.isInteger(value)))
      throw new Error(`${flag}: ${text} is not a ${integer ? 'whole ' : ''}number ≥ ${min}`);
    return value;
  };
}

/** A limit, or `unlimited` (kept as that word: commander takes a parser's null for no value). */
const unlimitedOr = (flag: string, integer: boolean) => (text: string) =>
  text === 'unlimited' ? text : number(flag, integer, integer ? 1 : Number.MIN_VALUE)(text);
const limitOf = (value: number | 'unlimited') => (value === 'unlimited' ? null : value);

function groupsOf(text: string): Group[] {
  const groups = text.split(',').map((g) => g.trim());
  for (const group of groups)
    if (!(GROUPS as readonly string[]).includes(group))
      throw new Error(`--group-by: ${group} is not one of ${GROUPS.join(', ')}`);
  return [...new Set(groups)] as Group[];
}

const TOKEN_COLUMNS = [
  'name',
  'role',
  'balance',
  'spent',
  'rate_per_second',
  'concurrency',
  'expires_at',
  'disabled',
  'last_used_at',
];

/**
 * `credits <name-or-id> <delta> [--note]` under `parent` (a token's or an account's): a top-up or
 * a deduction through `credit`, written to the ledger; never below zero.
 */
export function creditsCommand(
  parent: Command,
  configOption: () => Option,
  credit: (
    admin: Admin,
    nameOrId: string,
    delta: number,
    note: string | undefined,
  ) => Promise<{ name: string; balance: number }>,
): void {
  parent
    .command('credits')
    .description('top up (+500) or deduct (-- -200) credits, written to the ledger; never below zero')
    .addOption(configOption())
    .argument('<name-or-id>')
    .argument('<delta>', 'signed whole number: +500 adds, -200 takes (write `-- -200`)')
    .option('--note <text>', 'kept in the ledger entry (an invoice, a reason)')
    .option('--json', 'print {balance, delta, …} as JSON')
    .action(async (nameOrId: string, deltaText: string, flags) => {
      const delta = Number(deltaText);
      if (!/^[+-]?\d+$/.test(deltaText) || delta === 0)
        throw new Error(`<delta>: ${deltaText} is not a signed whole number other than 0`);
      const result = await withAdmin(flags.config, (admin) => credit(admin, nameOrId, delta, flags.note));
      print(
        flags.json,
        result,
        () => `${result.name}: balance ${result.balance} (${delta > 0 ? '+' : ''}${delta})\n`,
      );
    });
}

/** `token update` and `token credits`, added to the `token` command. */
export function tokenAdminCommands(token: Command, configOption: () => Option): void {
  token
    .command('update')
    .description("change a token's operations, limits, expiry, balance kind or switch")
    .addOption(configOption())
    .argument('<name-or-id>')
    .option('--operations <list>', 'comma-separated operation paths or families, or `all`')
    .option('--rate <n>', 'requests per second, or `unlimited`', unlimitedOr('--rate', false))
    .option('--concurrency <n>', 'requests at a time, or `unlimited`', unlimitedOr('--concurrency', true))
    .option('--expires-at <time>', 'ISO 8601 time, or `never`')
    .option('--unlimited', 'no balance from now on')
    .option('--limited', 'a balance again, from 0')
    .option('--disable', 'refuse the token until --enable')
    .option('--enable', 'accept a disabled token again')
    .option('--json', 'print the token as JSON')
    .action(async (nameOrId: string, flags) => {
      const patch = {
        ...(flags.operations !== undefined
          ? {
              operations:
                flags.operations === 'all'
                  ? null
                  : String(flags.operations)
                      .split(',')
                      .map((s) => s.trim()),
            }
          : {}),
        ...(flags.rate !== undefined ? { rate_per_second: limitOf(flags.rate) } : {}),
        ...(flags.concurrency !== undefined ? { concurrency: limitOf(flags.concurrency) } : {}),
        ...(flags.expiresAt !== undefined
          ? {
              expires_at:
                flags.expiresAt === 'never'
                  ? null
                  : new Date(timeOf('--expires-at', flags.expiresAt) as number).toISOString(),
            }
          : {}),
        ...(flags.unlimited || flags.limited ? { unlimited: Boolean(flags.unlimited) } : {}),
        ...(flags.disable || flags.enable ? { disabled: Boolean(flags.disable) } : {}),
      };
      if (Object.keys(patch).length === 0)
        throw new Error('token update: give at least one change (see --help)');
      const record = await withAdmin(flags.config, (admin) => admin.tokens.update(nameOrId, patch, CLI));
      print(flags.json, record, () => table([record as unknown as Record<string, unknown>], TOKEN_COLUMNS));
    });

  creditsCommand(token, configOption, (admin, nameOrId, delta, note) =>
    admin.tokens.credit(nameOrId, delta, note, CLI),
  );
}

/** `usage`, `requests` and `channels`. */
export function adminCommands(configOption: () => Option): Command[] {
  const usage = new Command('usage')
    .description('usage grouped by token, operation, model and day (credits kept, p50 and p95)')
    .addOption(configOption())
    .option('--group-by <list>', `comma-separated: ${GROUPS.join(', ')}`, 'token,operation')
    .option('--from <time>', 'ISO 8601 time or unix seconds')
    .option('--to <time>', 'ISO 8601 time or unix seconds (excluded)')
    .option('--token <name-or-id>', 'one token only')
    .option('--operation <key>', 'one operation only (a price key such as serp.web, or a path)')
    .option('--csv', 'print CSV')
    .option('--json', 'print {rows: […]} as JSON')
    .action(async (flags) => {
      const groupBy = groupsOf(flags.groupBy);
      const query = {
        groupBy,
        ...(flags.from ? { from: timeOf('--from', flags.from) as number } : {}),
        ...(flags.to ? { to: timeOf('--to', flags.to) as number } : {}),
        ...(flags.token ? { token: flags.token as string } : {}),
        ...(flags.operation ? { operation: flags.operation as string } : {}),
      };
      if (flags.csv) {
        process.stdout.write(await withAdmin(flags.config, (admin) => admin.usageCsv(query)));
        return;
      }
      const rows = await withAdmin(flags.config, (admin) => admin.usage(query));
      print(flags.json, { rows }, () =>
        table(rows as unknown as Record<string, unknown>[], [
          ...groupBy,
          'requests',
          'succeeded',
          'failed',
          'credits',
          'p50_ms',
          'p95_ms',
        ]),
      );
    });

  const requests = new Command('requests')
    .description('the request log, newest first')
    .addOption(configOption())
    .option('--token <name-or-id>', 'one token only')
    .option('--operation <key>', 'one operation only (a price key such as serp.web, or a path)')
    .option('--status <status>', 'an HTTP status (403) or a class (4xx)')
    .option('--limit <n>', 'rows (at most 500)', number('--limit', true, 1), 50)
    .option('--before <cursor>', 'the cursor printed after the previous page')
    .option('--json', 'print {rows: […], next} as JSON')
    .action(async (flags) => {
      const status = flags.status as string | undefined;
      if (status !== undefined && !/^([1-5]\d{2}|[1-5]xx)$/.test(status))
        throw new Error(`--status: ${status} is neither an HTTP status (403) nor a class (4xx)`);
      if (flags.limit > 500) throw new Error('--limit: at most 500');
      const page = await withAdmin(flags.config, (admin) =>
        admin.requests({
          limit: flags.limit,
          ...(flags.before ? { before: flags.before as string } : {}),
          ...(flags.token ? { token: flags.token as string } : {}),
          ...(flags.operation ? { operation: flags.operation as string } : {}),
          ...(status !== undefined
            ? { status: (/^\d+$/.test(status) ? Number(status) : status) as StatusFilter }
            : {}),
        }),
      );
      print(
        flags.json,
        page,
        () =>
          table(page.rows as unknown as Record<string, unknown>[], [
            'at',
            'token',
            'operation',
            'model',
            'status',
            'credits',
            'latency_ms',
            'error_code',
            'trace_id',
          ]) + (page.next ? `next page: --before ${page.next}\n` : ''),
      );
    });

  const channels = new Command('channels')
    .description('channels of every capability: list, probe, disable, enable')
    .addOption(configOption())
    .argument('[action]', 'list, probe, disable or enable', 'list')
    .argument('[id]', 'the channel (probe, disable, enable)')
    .option('--json', 'print JSON')
    .action(async (action: string, id: string | undefined, flags) => {
      if (!['list', 'probe', 'disable', 'enable'].includes(action))
        throw new Error(`channels: ${action} is not one of list, probe, disable, enable`);
      if (action !== 'list' && !id)
        throw new Error(`channels ${action}: name the channel (see channels list)`);
      const rows = await withAdmin(flags.config, async (admin) =>
        action === 'list'
          ? admin.channels.list()
          : [await admin.channels[action as 'probe' | 'disable' | 'enable'](id as string, CLI)],
      );
      print(flags.json, action === 'list' ? { rows } : rows[0], () =>
        table(
          rows.map((r) => ({
            ...r,
            probe: r.last_probe
              ? `${r.last_probe.ok ? 'ok' : 'failed'} ${r.last_probe.detail ?? ''}`.trim()
              : null,
          })),
          ['id', 'capability', 'kind', 'state', 'base_url', 'priority', 'weight', 'probe'],
        ),
      );
    });

  const codes = new Command('codes')
    .description('redemption codes: create a batch, list the batches, disable a batch')
    .addOption(configOption())
    .argument('[action]', 'create, list or disable', 'list')
    .argument('[batch]', 'the batch (disable; list prints it alone)')
    .option('--credits <n>', 'create: credits each use of a code adds', number('--credits', true, 1))
    .option('--count <n>', 'create: codes in the batch, at most 10000', number('--count', true, 1))
    .option('--uses <n>', 'create: uses per code', number('--uses', true, 1), 1)
    .option('--expires-at <time>', 'create: ISO 8601 time after which its codes are refused')
    .option('--note <text>', 'create: for the operator (an order, a campaign)')
    .option('--json', 'print JSON')
    .action(async (action: string, batch: string | undefined, flags) => {
      if (!['create', 'list', 'disable'].includes(action))
        throw new Error(`codes: ${action} is not one of create, list, disable`);
      if (action === 'create') {
        if (flags.credits === undefined || flags.count === undefined)
          throw new Error('codes create: --credits and --count are required');
        if (flags.count > 10_000) throw new Error('--count: at most 10000');
        if (flags.note !== undefined && flags.note.length > 200)
          throw new Error('--note: at most 200 characters');
        const expiresAt = flags.expiresAt ? (timeOf('--expires-at', flags.expiresAt) as number) : null;
        if (expiresAt !== null && expiresAt <= Date.now())
          throw new Error('--expires-at: must be in the future');
        const made = await withAdmin(flags.config, (admin) =>
          admin.codes.create(
            {
              credits: flags.credits,
              count: flags.count,
              uses: flags.uses,
              expiresAt,
              note: flags.note ?? null,
            },
            CLI,
          ),
        );
        // The codes are printed here only: they are kept as hashes.
        print(flags.json, made, () => `batch ${made.batch}\n${made.codes.join('\n')}\n`);
        return;
      }
      if (action === 'disable' && !batch) throw new Error('codes disable: name the batch (see codes list)');
      const rows = await withAdmin(flags.config, async (admin) =>
        action === 'list'
          ? (await admin.codes.list(batch)).rows
          : [await admin.codes.disable(batch as string, CLI)],
      );
      print(flags.json, action === 'list' ? { rows } : rows[0], () =>
        table(rows as unknown as Record<string, unknown>[], [
          'batch',
          'credits',
          'count',
          'uses_per_code',
          'used',
          'expires_at',
          'disabled_at',
          'note',
        ]),
      );
    });

  return [usage, requests, channels, codes];
}
