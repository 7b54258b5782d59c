/**
 * Where a request is charged, in one place: its price by the table (pricing.ts), the hold of the
 * most it can cost (credits.ts), the settlement once its answer or its stream has ended, and the
 * credits its usage row keeps (usage.ts). The HTTP layer opens one meter for a synchronous request
 * and hands it the answer's end; a task's price is fixed at its submission and is taken and
 * refunded in the task's own transactions (tasks/store.ts), so its request's row keeps nothing.
 */
import type { Price } from '../config/schema.js';
import type { Credits, Payer, Reservation } from './credits.js';
import { chargeFor, quoteOf, type Charge, type Quote, type TokenCount } from './pricing.js';
import type { BudgetWindow } from './budgets.js';
import type { Usage, UsageRecord } from './usage.js';

/** The token usage an answer reports (chat completions do). */
function usageOf(answer: unknown): TokenCount | undefined {
  const usage = (answer as { usage?: Partial<TokenCount> } | null)?.usage;
  return typeof usage?.prompt_tokens === 'number' && typeof usage.completion_tokens === 'number'
    ? (usage as TokenCount)
    : undefined;
}

/** The charge of one synchronous request, from its hold to what it kept. */
export class Meter {
  /** What the request kept once settled, which its usage row records. */
  charged = 0;

  constructor(
    private readonly charge: Charge,
    private readonly reservation: Reservation,
  ) {}

  /**
   * Holds the credits durably before an answer whose cost is known only at its end (a stream);
   * used_up when the balance no longer covers them.
   */
  secure(): Promise<void> {
    return this.reservation.secure();
  }

  /** A whole answer: its price, or what the token usage it reports costs. */
  settle(answer: unknown): Promise<void> {
    return this.keep(this.charge.actual(usageOf(answer)));
  }

  /** A stream of lines has ended: its price when it ended whole, nothing when it broke. */
  settleLines(whole: boolean): Promise<void> {
    return this.keep(whole ? this.charge.actual(undefined) : 0);
  }

  /**
   * An event stream has ended. A broken stream is charged for what it used when that is known.
   * Unknown: a stream the client abandoned keeps its hold (the upstream generated for it); one
   * that broke upstream costs nothing.
   */
  settleEvents(whole: boolean, usage: TokenCount | undefined, clientLeft: boolean): Promise<void> {
    return this.keep(whole || usage ? this.charge.actual(usage) : clientLeft ? this.charge.hold : 0);
  }

  /** Gives the hold back: the request failed. */
  refund(): Promise<void> {
    return this.reservation.refund();
  }

  private keep(cost: number): Promise<void> {
    this.charged = cost;
    return this.reservation.settle(cost);
  }
}

export class Metering {
  constructor(
    private readonly prices: Record<string, Price>,
    private readonly credits: Credits,
    private readonly usage: Usage,
  ) {}

  /** Prices a synchronous request and holds the most it can cost: used_up when the balance is short. */
  async open(payer: Payer, priceKey: string, body: Record<string, unknown>, traceId: string): Promise<Meter> {
    const charge = chargeFor(this.prices, priceKey, body);
    return new Meter(charge, await this.credits.reserve(payer, charge.hold, traceId));
  }

  /** The quote of a task, fixed at its submission, and the budget windows it will count in. */
  quoteTask(
    payer: Payer,
    priceKey: string,
    body: Record<string, unknown>,
  ): { quote: Quote; windows: BudgetWindow[] } {
    return { quote: quoteOf(this.prices, priceKey, body), windows: this.credits.windowsOf(payer) };
  }

  /** The usage row of an answered request, with the credits its meter kept (none without one). */
  record(row: Omit<UsageRecord, 'credits'>, meter: Meter | undefined): void {
    this.usage.record({ ...row, credits: meter?.charged ?? 0 });
  }
}
