/**
 * `switchyard account create|list|show|update|credits`: customers' accounts over the admin API's
 * own service layer, audited with the actor `cli`. Budgets are written `100/day`, `2000/month`.
 */
import { Command, type Option } from 'commander';
import type { BudgetRule } from '../accounts/budgets.js';
import { PERIODS, type Period } from '../accounts/budget-windows.js';
import type { AccountRecord } from '../admin/accounts.js';
import { CLI } from '../admin/audit.js';
import { creditsCommand, number, print, withAdmin } from './admin.js';
import { table } from './table.js';

/** `100/day` → {credits: 100, period: 'day'}; each period at most once. */
function budgetOf(text: string, earlier: BudgetRule[] = []): BudgetRule[] {
  const match = /^([1-9][0-9]*)\/(\w+)$/.exec(text);
  if (!match || !(PERIODS as readonly string[]).includes(match[2]!))
    throw new Error(
      `--budget: ${text} is not CREDITS/PERIOD with a period of ${PERIODS.join(', ')} (100/day)`,
    );
  const rule = { credits: Number(match[1]), period: match[2] as Period };
  if (earlier.some((b) => b.period === rule.period))
    throw new Error(`--budget: ${rule.period} is given twice`);
  return [...earlier, rule];
}

const lineOf = (text: string) => (text === 'none' ? null : number('--low-balance', true)(text));

function rowsOf(accounts: AccountRecord[]): Record<string, unknown>[] {
  return accounts.map((a) => ({
    name: a.name,
    balance: a.unlimited ? 'unlimited' : a.balance,
    budgets: a.budgets.map((b) => `${b.used}/${b.credits} a ${b.period}`).join(', '),
    low_balance: a.low_balance,
    tokens: a.tokens
      .filter((t) => !t.revoked)
      .map((t) => t.name)
      .join(', '),
  }));
}

const COLUMNS = ['name', 'balance', 'budgets', 'low_balance', 'tokens'];

export function accountCommands(configOption: () => Option): Command {
  const account = new Command('account').description("customers' accounts: the balance their tokens share");

  account
    .command('create')
    .description('make an account (its tokens: `token create --account NAME`)')
    .addOption(configOption())
    .argument('<name>')
    .option('--credits <n>', 'opening balance (default 0)', number('--credits', true))
    .option('--unlimited', 'no balance: only budgets limit it')
    .option('--budget <credits/period>', 'a spending window, e.g. 100/day (repeatable)', budgetOf)
    .option('--low-balance <n>', 'alert when the balance falls under this', lineOf)
    .option('--json', 'print the account as JSON')
    .action(async (name: string, flags) => {
      if (flags.unlimited && flags.credits !== undefined)
        throw new Error('--credits: an unlimited account has no balance');
      const made = await withAdmin(flags.config, (admin) =>
        admin.accounts.create(
          {
            name,
            ...(flags.credits !== undefined ? { credits: flags.credits } : {}),
            ...(flags.unlimited ? { unlimited: true } : {}),
            ...(flags.budget ? { budgets: flags.budget } : {}),
            ...(flags.lowBalance !== undefined ? { low_balance: flags.lowBalance } : {}),
          },
          CLI,
        ),
      );
      print(flags.json, made, () => table(rowsOf([made]), COLUMNS));
    });

  account
    .command('list')
    .description('accounts, newest first')
    .addOption(configOption())
    .option('--json', 'print {rows: […]} as JSON')
    .action(async (flags) => {
      const page = await withAdmin(flags.config, (admin) => admin.accounts.list({ limit: 500 }));
      print(flags.json, { rows: page.rows }, () => table(rowsOf(page.rows), COLUMNS));
    });

  account
    .command('show')
    .description('one account: balance, budget windows, tokens')
    .addOption(configOption())
    .argument('<name-or-id>')
    .option('--json', 'print the account as JSON')
    .action(async (nameOrId: string, flags) => {
      const found = await withAdmin(flags.config, (admin) => admin.accounts.get(nameOrId));
      print(flags.json, found, () => table(rowsOf([found]), COLUMNS));
    });

  account
    .command('update')
    .description("change an account's budgets, low-balance line or balance kind")
    .addOption(configOption())
    .argument('<name-or-id>')
    .option('--budget <credits/period>', 'the spending windows from now on (repeatable)', budgetOf)
    .option('--no-budgets', 'no spending windows')
    .option('--low-balance <n>', 'the alert line, or `none`', lineOf)
    .option('--unlimited', 'no balance from now on')
    .option('--limited', 'a balance again, from 0')
    .option('--json', 'print the account as JSON')
    .action(async (nameOrId: string, flags) => {
      const patch = {
        ...(flags.budget ? { budgets: flags.budget as BudgetRule[] } : {}),
        ...(flags.budgets === false ? { budgets: null } : {}),
        ...(flags.lowBalance !== undefined ? { low_balance: flags.lowBalance as number | null } : {}),
        ...(flags.unlimited || flags.limited ? { unlimited: Boolean(flags.unlimited) } : {}),
      };
      if (Object.keys(patch).length === 0)
        throw new Error('account update: give at least one change (see --help)');
      const changed = await withAdmin(flags.config, (admin) => admin.accounts.update(nameOrId, patch, CLI));
      print(flags.json, changed, () => table(rowsOf([changed]), COLUMNS));
    });

  creditsCommand(account, configOption, (admin, nameOrId, delta, note) =>
    admin.accounts.credit(nameOrId, delta, note, CLI),
  );

  return account;
}
