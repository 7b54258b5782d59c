/**
 * Budgets: how many credits an account or one of its tokens may spend per calendar day, week or
 * month, several windows at once (100 a day and 2,000 a month). A budget limits spending; the
 * balance still pays. What each window used is counted in `budget_use` in the same transaction as
 * the charge (budget-use.ts), and given back with a refund, to the window the charge counted in.
 */
import { ServiceError } from '../errors.js';
import { windowOf, type Period } from './budget-windows.js';

export interface BudgetRule {
  credits: number;
  period: Period;
}

/** A rule with whose it is: `account:{id}` or `token:{id}`, and how an error names it. */
export interface Budget extends BudgetRule {
  owner: string;
  label: string;
}

/** A budget's current window, as a charge counts against it. */
export interface BudgetWindow {
  owner: string;
  period: Period;
  startsAt: number;
  resetsAt: number;
  limit: number;
  label: string;
}

/** One window's row in `budget_use`, as a task keeps it to give its refund back to. */
export type WindowKey = [owner: string, period: string, startsAt: number];

export const keyOf = (w: Pick<BudgetWindow, 'owner' | 'period' | 'startsAt'>): WindowKey => [
  w.owner,
  w.period,
  w.startsAt,
];

export const joinedKey = (k: WindowKey): string => k.join('|');

export function rulesOf(json: string | null | undefined): BudgetRule[] {
  return json ? (JSON.parse(json) as BudgetRule[]) : [];
}

export function budgetsOf(owner: string, label: string, json: string | null | undefined): Budget[] {
  return rulesOf(json).map((rule) => ({ ...rule, owner, label }));
}

export function windowsOf(budgets: readonly Budget[], at: number, zone: string): BudgetWindow[] {
  return budgets.map((b) => ({
    owner: b.owner,
    period: b.period,
    limit: b.credits,
    label: b.label,
    ...windowOf(b.period, at, zone),
  }));
}

/** The refusal of a request that a budget window cannot cover: names the window and its reset. */
export function windowUsedUp(window: BudgetWindow, amount: number): ServiceError {
  return new ServiceError(
    'used_up',
    `the ${window.period} budget of ${window.label} (${window.limit} credits) cannot cover this ` +
      `request's ${amount}; it resets at ${new Date(window.resetsAt).toISOString()}`,
  );
}
