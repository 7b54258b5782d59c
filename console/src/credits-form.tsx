/**
 * The top-up and deduction form of a balance, written to the ledger with a note: a token's
 * (its account's balance) or an account's. The server refuses what would go below zero; the
 * refusal shows beside the form.
 */
import { useState } from 'preact/hooks';
import { post } from './api';
import { ErrorNote, Field, num, useAction } from './ui';

export function CreditsForm({
  path,
  balance,
  what,
  onChanged,
}: {
  /** The token's or account's path under the admin API; its credits are `${path}/credits`. */
  path: string;
  /** The balance, or null when unlimited. */
  balance: number | null;
  /** `token` or `account`, as the hint for an unlimited one names it. */
  what: string;
  onChanged: () => void;
}) {
  const [delta, setDelta] = useState('');
  const [note, setNote] = useState('');
  const topUp = useAction(() =>
    post<{ balance: number }>(`${path}/credits`, { delta: Number(delta), ...(note ? { note } : {}) }),
  );
  const unlimited = balance === null;
  return (
    <form
      class="subform"
      aria-label="Credits"
      onSubmit={async (e) => {
        e.preventDefault();
        if (await topUp.start()) {
          setDelta('');
          setNote('');
          onChanged();
        }
      }}
    >
      <h3>Credits</h3>
      <p>
        Balance: <strong>{unlimited ? 'unlimited' : num(balance)}</strong>
      </p>
      <Field label="Credits to add" hint="negative to deduct; never below zero">
        <input type="number" required value={delta} onInput={(e) => setDelta(e.currentTarget.value)} />
      </Field>
      <Field label="Note" hint="kept in the ledger, e.g. an invoice number">
        <input value={note} onInput={(e) => setNote(e.currentTarget.value)} />
      </Field>
      <ErrorNote error={topUp.error} />
      <button type="submit" disabled={topUp.busy || unlimited}>
        Apply
      </button>
      {unlimited && <p class="hint">An unlimited {what} has no balance to top up.</p>}
    </form>
  );
}
