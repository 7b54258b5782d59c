/**
 * Accounts: the customers whose balance their tokens spend. Search, create one (opening credits or
 * unlimited, budgets, a low-balance line), and for one account: its tokens, its budgets, a top-up
 * or deduction with a note, and its ledger.
 */
import { CreditsForm } from '../credits-form';
import { useEffect, useState } from 'preact/hooks';
import { get, patch, post, query, type Page } from '../api';
import { BudgetFields, draftOf, rulesOf, Windows, type WindowRow } from '../budgets';
import {
  Empty,
  ErrorNote,
  Field,
  Loading,
  PageHeader,
  Section,
  Table,
  num,
  useAction,
  useLoad,
  when,
} from '../ui';

interface AccountRow {
  id: string;
  name: string;
  unlimited: boolean;
  balance: number | null;
  low_balance: number | null;
  budgets: WindowRow[];
  tokens: { id: string; name: string; revoked: boolean }[];
  created_at: string | null;
}

interface LedgerRow {
  id: string;
  at: string | null;
  account: string;
  token: string | null;
  kind: string;
  delta: number;
  balance_after: number;
  note: string | null;
  actor: string;
  trace_id: string | null;
}

const intOrNull = (text: string) => (text.trim() === '' ? null : Number(text));
const balanceOf = (a: AccountRow) => (a.unlimited ? 'unlimited' : num(a.balance));
const signed = (delta: number) => (delta > 0 ? `+${num(delta)}` : num(delta));

export function Accounts() {
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string>();
  const list = useLoad(() => get<Page<AccountRow>>(`/accounts${query({ q: search, limit: 200 })}`), [search]);
  const account = list.data?.rows.find((a) => a.id === selected);
  return (
    <>
      <PageHeader title="Accounts">
        An account holds the balance its tokens spend, and the budgets that cap it per day, week or month.
      </PageHeader>
      <NewAccount onCreated={list.reload} />
      <Section title="All accounts">
        <form role="search" class="filters" onSubmit={(e) => e.preventDefault()}>
          <Field label="Search by name">
            <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
          </Field>
        </form>
        <ErrorNote error={list.error} />
        {!list.data && !list.error && <Loading what="accounts" />}
        {list.data && list.data.rows.length === 0 && (
          <Empty title={search ? `No account's name contains “${search}”.` : 'No accounts yet.'}>
            Create one above, then give it tokens on the Tokens page.
          </Empty>
        )}
        {list.data && list.data.rows.length > 0 && (
          <Table caption="Accounts">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Balance</th>
                <th scope="col">Budgets</th>
                <th scope="col">Tokens</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.rows.map((a) => (
                <tr key={a.id} class={selected === a.id ? 'selected' : ''}>
                  <td>
                    <button
                      type="button"
                      class="link"
                      aria-expanded={selected === a.id}
                      onClick={() => setSelected(selected === a.id ? undefined : a.id)}
                    >
                      {a.name}
                    </button>
                  </td>
                  <td data-balance={a.name}>{balanceOf(a)}</td>
                  <td>
                    <Windows windows={a.budgets} />
                  </td>
                  <td>{num(a.tokens.filter((t) => !t.revoked).length)}</td>
                  <td>{when(a.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>
      {account && <AccountDetail key={account.id} account={account} onChanged={list.reload} />}
    </>
  );
}

function NewAccount({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [credits, setCredits] = useState('');
  const [unlimited, setUnlimited] = useState(false);
  const [budgets, setBudgets] = useState(draftOf());
  const [lowBalance, setLowBalance] = useState('');
  const create = useAction(() =>
    post<AccountRow>('/accounts', {
      name,
      ...(unlimited ? { unlimited: true } : { credits: intOrNull(credits) ?? 0 }),
      ...(rulesOf(budgets).length > 0 ? { budgets: rulesOf(budgets) } : {}),
      ...(intOrNull(lowBalance) !== null ? { low_balance: intOrNull(lowBalance) } : {}),
    }),
  );
  return (
    <Section title="New account">
      <form
        class="form-grid"
        onSubmit={async (e) => {
          e.preventDefault();
          if (await create.start()) onCreated();
        }}
      >
        <Field label="Name" hint="letters, digits, _ . @ or -">
          <input required value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </Field>
        <div class="field">
          <Field label="Opening credits" hint="empty: 0">
            <input
              type="number"
              min={0}
              value={unlimited ? '' : credits}
              disabled={unlimited}
              onInput={(e) => setCredits(e.currentTarget.value)}
            />
          </Field>
          <label class="check">
            <input
              type="checkbox"
              checked={unlimited}
              onChange={(e) => setUnlimited(e.currentTarget.checked)}
            />
            Unlimited (no balance; budgets still apply)
          </label>
        </div>
        <Field label="Low-balance line" hint="an alert when the balance falls under it; empty: the server's">
          <input
            type="number"
            min={0}
            value={lowBalance}
            onInput={(e) => setLowBalance(e.currentTarget.value)}
          />
        </Field>
        <BudgetFields draft={budgets} onChange={setBudgets} />
        <div class="actions">
          <button type="submit" class="primary" disabled={create.busy}>
            Create account
          </button>
        </div>
      </form>
      <ErrorNote error={create.error} />
      {create.result && !create.busy && (
        <p class="created" role="status">
          Account <strong>{create.result.name}</strong> created.
        </p>
      )}
    </Section>
  );
}

function AccountDetail({ account, onChanged }: { account: AccountRow; onChanged: () => void }) {
  const path = `/accounts/${encodeURIComponent(account.id)}`;
  const ledger = useLoad(
    () => get<Page<LedgerRow>>(`/ledger${query({ account: account.id, limit: 50 })}`),
    [account.id],
  );
  const [budgets, setBudgets] = useState(draftOf(account.budgets));
  const [lowBalance, setLowBalance] = useState(
    account.low_balance === null ? '' : String(account.low_balance),
  );
  const [unlimited, setUnlimited] = useState(account.unlimited);
  const save = useAction(() =>
    patch<AccountRow>(path, {
      budgets: rulesOf(budgets).length > 0 ? rulesOf(budgets) : null,
      low_balance: intOrNull(lowBalance),
      unlimited,
    }),
  );
  const changed = () => {
    onChanged();
    ledger.reload();
  };
  const rows = ledger.data?.rows ?? [];
  // The detail is drawn below the whole list: brought into view, or on a phone a tap on a name
  // would seem to do nothing.
  useEffect(() => document.getElementById('account-detail')?.scrollIntoView({ block: 'start' }), []);

  return (
    <Section title={`Account ${account.name}`} id="account-detail">
      <div class="grid-2">
        <CreditsForm
          path={path}
          balance={account.unlimited ? null : account.balance}
          what="account"
          onChanged={changed}
        />
        <form
          class="subform"
          aria-label="Budgets and limits"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await save.start()) changed();
          }}
        >
          <h3>Budgets and limits</h3>
          <Windows windows={account.budgets} />
          <BudgetFields draft={budgets} onChange={setBudgets} />
          <Field label="Low-balance line" hint="empty: the server's">
            <input
              type="number"
              min={0}
              value={lowBalance}
              onInput={(e) => setLowBalance(e.currentTarget.value)}
            />
          </Field>
          <label class="check">
            <input
              type="checkbox"
              checked={unlimited}
              onChange={(e) => setUnlimited(e.currentTarget.checked)}
            />
            Unlimited credits
          </label>
          <ErrorNote error={save.error} />
          <button type="submit" disabled={save.busy}>
            Save budgets
          </button>
          {save.result && !save.busy && <p role="status">Saved.</p>}
        </form>
      </div>
      <h3>Tokens</h3>
      {account.tokens.length === 0 ? (
        <p class="muted">None yet: create one on the Tokens page with this account.</p>
      ) : (
        <ul class="names">
          {account.tokens.map((t) => (
            <li key={t.id}>
              {t.name}
              {t.revoked && <span class="muted"> (revoked)</span>}
            </li>
          ))}
        </ul>
      )}
      <h3>Ledger</h3>
      <ErrorNote error={ledger.error} />
      {!ledger.data && !ledger.error && <Loading what="the ledger" />}
      {ledger.data && rows.length === 0 && <p class="muted">No entries yet.</p>}
      {rows.length > 0 && (
        <Table caption={`Ledger of ${account.name}`}>
          <thead>
            <tr>
              <th scope="col">At</th>
              <th scope="col">Kind</th>
              <th scope="col">Change</th>
              <th scope="col">Balance after</th>
              <th scope="col">Token</th>
              <th scope="col">Note</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{when(r.at)}</td>
                <td>{r.kind}</td>
                <td>{signed(r.delta)}</td>
                <td>{num(r.balance_after)}</td>
                <td>{r.token ?? '—'}</td>
                <td>{r.note ?? '—'}</td>
                <td>{r.actor}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Section>
  );
}
