/** Tokens: search, create (the secret shown once), and for one token: credits, limits, switches. */
import { CreditsForm } from '../credits-form';
import { useState } from 'preact/hooks';
import { del, get, patch, post, query, type Page } from '../api';
import {
  Empty,
  ErrorNote,
  Field,
  Loading,
  PageHeader,
  Secret,
  Section,
  State,
  Table,
  num,
  useAction,
  useLoad,
  when,
} from '../ui';

export interface TokenRow {
  id: string;
  name: string;
  role: 'client' | 'admin' | 'viewer';
  /** The account whose balance it spends, by name. */
  account: string;
  operations: string[] | null;
  /** null: no limit. */
  rate_per_second: number | null;
  concurrency: number | null;
  expires_at: string | null;
  unlimited: boolean;
  balance: number | null;
  spent: number;
  last_used_at: string | null;
  disabled: boolean;
  revoked_at: string | null;
}

type Created = TokenRow & { token: string; webhook_secret: string };

const listOf = (text: string) =>
  text.trim() === ''
    ? null
    : text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
const intOf = (text: string) => (text.trim() === '' ? undefined : Number(text));
/** A client token's limits; null is no limit. */
const limitsOf = (t: TokenRow) =>
  [
    t.rate_per_second === null ? 'any rate' : `${t.rate_per_second}/s`,
    t.concurrency === null ? 'any number at once' : `${t.concurrency} at once`,
  ].join(' · ');
const dayEnd = (date: string) => (date ? new Date(`${date}T23:59:59`).toISOString() : null);

export function Tokens() {
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string>();
  const list = useLoad(() => get<Page<TokenRow>>(`/tokens${query({ q: search, limit: 200 })}`), [search]);
  return (
    <>
      <PageHeader title="Tokens">
        Client tokens call the operations; admin tokens open this console.
      </PageHeader>
      <NewToken onCreated={list.reload} />
      <Section title="All tokens">
        <form role="search" class="filters" onSubmit={(e) => e.preventDefault()}>
          <Field label="Search by name">
            <input type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
          </Field>
        </form>
        <ErrorNote error={list.error} />
        {!list.data && !list.error && <Loading what="tokens" />}
        {list.data && list.data.rows.length === 0 && (
          <Empty title={search ? `No token's name contains “${search}”.` : 'No tokens yet.'}>
            Create one above: its secret is shown once, with a button to copy it.
          </Empty>
        )}
        {list.data && list.data.rows.length > 0 && (
          <Table caption="Tokens">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Account</th>
                <th scope="col">Balance</th>
                <th scope="col">Spent</th>
                <th scope="col">Limits</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {list.data.rows.map((t) => (
                <tr key={t.id} class={selected === t.id ? 'selected' : ''}>
                  <td>
                    <button
                      type="button"
                      class="link"
                      aria-expanded={selected === t.id}
                      onClick={() => setSelected(selected === t.id ? undefined : t.id)}
                    >
                      {t.name}
                    </button>
                  </td>
                  <td>{t.role}</td>
                  <td>{t.account}</td>
                  <td data-balance={t.name}>{t.unlimited ? 'unlimited' : num(t.balance)}</td>
                  <td>{num(t.spent)}</td>
                  <td>{t.role === 'client' ? limitsOf(t) : '—'}</td>
                  <td>{when(t.expires_at)}</td>
                  <td>{when(t.last_used_at)}</td>
                  <td>
                    <State value={t.revoked_at ? 'revoked' : t.disabled ? 'disabled' : 'active'} />
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>
      {selected && list.data?.rows.some((t) => t.id === selected) && (
        <TokenDetail
          key={selected}
          token={list.data.rows.find((t) => t.id === selected) as TokenRow}
          onChanged={list.reload}
          onGone={() => {
            setSelected(undefined);
            list.reload();
          }}
        />
      )}
    </>
  );
}

function NewToken({ onCreated }: { onCreated: () => void }) {
  const [form, setForm] = useState({
    name: '',
    role: 'client',
    account: '',
    credits: '',
    operations: '',
    expires: '',
    rate: '',
    concurrency: '',
  });
  const set = (key: keyof typeof form) => (event: { currentTarget: { value: string } }) =>
    setForm({ ...form, [key]: event.currentTarget.value });
  const create = useAction(() =>
    post<Created>('/tokens', {
      name: form.name,
      role: form.role,
      // A token of an existing account spends its balance; without one it gets its own.
      ...(form.account ? { account: form.account } : { credits: intOf(form.credits) ?? null }),
      ...(listOf(form.operations) ? { operations: listOf(form.operations) } : {}),
      ...(form.expires ? { expires_at: dayEnd(form.expires) } : {}),
      ...(intOf(form.rate) !== undefined ? { rate_per_second: intOf(form.rate) } : {}),
      ...(intOf(form.concurrency) !== undefined ? { concurrency: intOf(form.concurrency) } : {}),
    }),
  );
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await create.start()) onCreated();
  };
  return (
    <Section title="New token">
      <form class="form-grid" onSubmit={submit}>
        <Field label="Name" hint="letters, digits, _ . @ or -">
          <input required value={form.name} onInput={set('name')} />
        </Field>
        <Field label="Role">
          <select value={form.role} onChange={set('role')}>
            <option value="client">client (calls operations)</option>
            <option value="admin">admin (opens the console)</option>
          </select>
        </Field>
        <Field label="Account" hint="an existing account; empty: an account of its own">
          <input value={form.account} onInput={set('account')} />
        </Field>
        <Field label="Credits" hint="its own account's; empty: unlimited">
          <input
            type="number"
            min={0}
            value={form.account ? '' : form.credits}
            disabled={form.account !== ''}
            onInput={set('credits')}
          />
        </Field>
        <Field label="Operations" hint="comma-separated families or paths; empty: all">
          <input value={form.operations} onInput={set('operations')} placeholder="serp, qrart" />
        </Field>
        <Field label="Expires on" hint="empty: never">
          <input type="date" value={form.expires} onInput={set('expires')} />
        </Field>
        <Field label="Requests per second" hint="empty: the server's default">
          <input type="number" min={1} value={form.rate} onInput={set('rate')} />
        </Field>
        <Field label="Concurrent requests" hint="empty: the server's default">
          <input type="number" min={1} value={form.concurrency} onInput={set('concurrency')} />
        </Field>
        <div class="actions">
          <button type="submit" class="primary" disabled={create.busy}>
            Create token
          </button>
        </div>
      </form>
      <ErrorNote error={create.error} />
      {create.result && (
        <div class="created" role="status">
          <p>
            Token <strong>{create.result.name}</strong> created.
          </p>
          <Secret label="Bearer token" value={create.result.token} />
          <Secret label="Callback secret" value={create.result.webhook_secret} />
          <button type="button" onClick={create.clear}>
            Done, hide the secrets
          </button>
        </div>
      )}
    </Section>
  );
}

function TokenDetail({
  token,
  onChanged,
  onGone,
}: {
  token: TokenRow;
  onChanged: () => void;
  onGone: () => void;
}) {
  const path = `/tokens/${encodeURIComponent(token.id)}`;
  const [limits, setLimits] = useState({
    operations: (token.operations ?? []).join(', '),
    rate: String(token.rate_per_second ?? ''),
    concurrency: String(token.concurrency ?? ''),
    expires: token.expires_at ? token.expires_at.slice(0, 10) : '',
    unlimited: token.unlimited,
  });
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const save = useAction(() =>
    patch<TokenRow>(path, {
      operations: listOf(limits.operations),
      rate_per_second: intOf(limits.rate) ?? null,
      concurrency: intOf(limits.concurrency) ?? null,
      expires_at: dayEnd(limits.expires),
      unlimited: limits.unlimited,
    }),
  );
  const toggle = useAction(() => patch<TokenRow>(path, { disabled: !token.disabled }));
  const rotate = useAction(() => post<{ webhook_secret: string }>(`${path}/rotate-secret`));
  const regenerate = useAction(() => post<{ token: string }>(`${path}/regenerate`));
  const revoke = useAction(() => del(path));

  return (
    <Section title={`Token ${token.name}`} id="token-detail">
      <div class="grid-2">
        <CreditsForm
          path={path}
          balance={token.unlimited ? null : token.balance}
          what="token"
          onChanged={onChanged}
        />
        <form
          class="subform"
          aria-label="Limits"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await save.start()) onChanged();
          }}
        >
          <h3>Limits</h3>
          <Field label="Operations" hint="comma-separated; empty: all">
            <input
              value={limits.operations}
              onInput={(e) => setLimits({ ...limits, operations: e.currentTarget.value })}
            />
          </Field>
          <Field label="Requests per second" hint="empty: no limit">
            <input
              type="number"
              min={1}
              value={limits.rate}
              onInput={(e) => setLimits({ ...limits, rate: e.currentTarget.value })}
            />
          </Field>
          <Field label="Concurrent requests" hint="empty: no limit">
            <input
              type="number"
              min={1}
              value={limits.concurrency}
              onInput={(e) => setLimits({ ...limits, concurrency: e.currentTarget.value })}
            />
          </Field>
          <Field label="Expires on" hint="empty: never">
            <input
              type="date"
              value={limits.expires}
              onInput={(e) => setLimits({ ...limits, expires: e.currentTarget.value })}
            />
          </Field>
          <label class="check">
            <input
              type="checkbox"
              checked={limits.unlimited}
              onChange={(e) => setLimits({ ...limits, unlimited: e.currentTarget.checked })}
            />
            Unlimited credits
          </label>
          <ErrorNote error={save.error} />
          <button type="submit" disabled={save.busy}>
            Save limits
          </button>
          {save.result && !save.busy && <p role="status">Saved.</p>}
        </form>
      </div>
      <h3>Switches and secrets</h3>
      <div class="actions">
        <button
          type="button"
          onClick={async () => {
            if (await toggle.start()) onChanged();
          }}
        >
          {token.disabled ? 'Enable' : 'Disable'}
        </button>
        <button type="button" onClick={() => rotate.start()}>
          Rotate callback secret
        </button>
        <button type="button" onClick={() => regenerate.start()}>
          Regenerate bearer secret
        </button>
        {confirmRevoke ? (
          <>
            <button
              type="button"
              class="danger"
              onClick={async () => {
                if (await revoke.start()) onGone();
              }}
            >
              Revoke {token.name} for ever
            </button>
            <button type="button" onClick={() => setConfirmRevoke(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" class="danger" onClick={() => setConfirmRevoke(true)}>
            Revoke…
          </button>
        )}
      </div>
      <ErrorNote error={toggle.error ?? rotate.error ?? regenerate.error ?? revoke.error} />
      {rotate.result && <Secret label="New callback secret" value={rotate.result.webhook_secret} />}
      {regenerate.result && <Secret label="New bearer token" value={regenerate.result.token} />}
    </Section>
  );
}
