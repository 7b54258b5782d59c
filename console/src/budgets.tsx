/**
 * Budgets as the console edits and shows them. An account or a token has at most one window per
 * period, so the form is one field per period (empty: no window) rather than rows to add.
 */
import { Field, num, when } from './ui';

export const PERIODS = ['day', 'week', 'month'] as const;
export type Period = (typeof PERIODS)[number];

/** A budget window as a record shows it: what it allows, used and has left, and when it resets. */
export interface WindowRow {
  period: Period;
  credits: number;
  used: number;
  remaining: number;
  resets_at: string | null;
}

/** The credits typed for each period; '' where there is no window. */
export type BudgetDraft = Record<Period, string>;

export const draftOf = (windows: readonly WindowRow[] = []): BudgetDraft => {
  const draft: BudgetDraft = { day: '', week: '', month: '' };
  for (const w of windows) draft[w.period] = String(w.credits);
  return draft;
};

/** The rules the admin API takes, in the order of the periods. */
export const rulesOf = (draft: BudgetDraft) =>
  PERIODS.filter((p) => draft[p].trim() !== '').map((period) => ({ period, credits: Number(draft[period]) }));

export const windowText = (w: WindowRow) =>
  `${num(w.used)} / ${num(w.credits)} per ${w.period}, resets ${when(w.resets_at)}`;

export function BudgetFields({
  draft,
  onChange,
}: {
  draft: BudgetDraft;
  onChange: (draft: BudgetDraft) => void;
}) {
  return (
    <fieldset class="groups budgets">
      <legend>Budgets</legend>
      <p class="hint">Credits a calendar window allows; empty: no window for that period.</p>
      {PERIODS.map((period) => (
        <Field key={period} label={`Credits per ${period}`}>
          <input
            type="number"
            min={1}
            value={draft[period]}
            onInput={(e) => onChange({ ...draft, [period]: e.currentTarget.value })}
          />
        </Field>
      ))}
    </fieldset>
  );
}

/** An account's or a token's windows, one line each. */
export function Windows({ windows }: { windows: readonly WindowRow[] }) {
  if (windows.length === 0) return <span class="muted">none</span>;
  return (
    <ul class="windows">
      {windows.map((w) => (
        <li key={w.period}>{windowText(w)}</li>
      ))}
    </ul>
  );
}
