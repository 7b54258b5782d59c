/** Redemption codes: make a batch (its codes shown this once), the batches with their uses, disable one. */
import { useState } from 'preact/hooks';
import { del, get, post, type Page } from '../api';
import {
  Empty,
  ErrorNote,
  Field,
  Loading,
  num,
  PageHeader,
  Secret,
  Section,
  Table,
  useAction,
  useLoad,
  when,
} from '../ui';

interface BatchRow {
  batch: string;
  credits: number;
  count: number;
  uses_per_code: number;
  used: number;
  expires_at: string | null;
  note: string | null;
  created_by: string;
  created_at: string;
  disabled_at: string | null;
}

/** A date input's day as the end of that day, local time, in ISO 8601. */
const endOfDay = (day: string) => new Date(`${day}T23:59:59`).toISOString();

/**
 * The batch's codes as a CSV file (batch, code), made in the page from the answer that carried
 * them: the server keeps hashes only, so this is the one time they can be saved.
 */
function csvLink(batch: string, codes: string[]): string {
  const lines = ['batch,code', ...codes.map((code) => `${batch},${code}`)];
  return `data:text/csv;charset=utf-8,${encodeURIComponent(`${lines.join('\r\n')}\r\n`)}`;
}

export function Codes() {
  const list = useLoad(() => get<Page<BatchRow>>('/codes'), []);
  const [credits, setCredits] = useState('500');
  const [count, setCount] = useState('10');
  const [uses, setUses] = useState('1');
  const [expires, setExpires] = useState('');
  const [note, setNote] = useState('');
  const make = useAction(async () =>
    post<{ batch: string; codes: string[] }>('/codes', {
      credits: Number(credits),
      count: Number(count),
      uses: Number(uses),
      ...(expires ? { expires_at: endOfDay(expires) } : {}),
      ...(note ? { note } : {}),
    }),
  );
  const disable = useAction(async (batch: string) => {
    await del(`/codes/${batch}`);
    list.reload();
    return batch;
  });
  const rows = list.data?.rows ?? [];
  return (
    <>
      <PageHeader title="Codes">
        Redemption codes: each adds its credits to the balance of the client that redeems it (
        <code>POST /v1/account/redeem</code>).
      </PageHeader>
      <Section title="Make a batch">
        <form
          class="form-grid"
          onSubmit={async (e) => {
            e.preventDefault();
            if (await make.start()) list.reload();
          }}
        >
          <Field label="Credits per use">
            <input
              required
              type="number"
              min="1"
              value={credits}
              onInput={(e) => setCredits(e.currentTarget.value)}
            />
          </Field>
          <Field label="Codes" hint="at most 10,000">
            <input
              required
              type="number"
              min="1"
              max="10000"
              value={count}
              onInput={(e) => setCount(e.currentTarget.value)}
            />
          </Field>
          <Field label="Uses per code">
            <input
              required
              type="number"
              min="1"
              value={uses}
              onInput={(e) => setUses(e.currentTarget.value)}
            />
          </Field>
          <Field label="Expires" hint="optional: refused after this day">
            <input type="date" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
          </Field>
          <Field label="Note" hint="optional: an order, a campaign">
            <input maxLength={200} value={note} onInput={(e) => setNote(e.currentTarget.value)} />
          </Field>
          <div class="actions">
            <button type="submit" class="primary" disabled={make.busy}>
              Make codes
            </button>
          </div>
        </form>
        <ErrorNote error={make.error} />
        {make.result && (
          <div class="created" role="status">
            <Secret label={`${make.result.codes.length} codes`} value={make.result.codes.join('\n')} />
            <a
              class="button"
              download={`codes-${make.result.batch}.csv`}
              href={csvLink(make.result.batch, make.result.codes)}
            >
              Download CSV
            </a>
          </div>
        )}
      </Section>
      <Section title="Batches">
        <ErrorNote error={list.error ?? disable.error} />
        {!list.data && !list.error && <Loading what="batches" />}
        {list.data && rows.length === 0 && (
          <Empty title="No codes yet.">Make a batch above; its codes are shown once.</Empty>
        )}
        {rows.length > 0 && (
          <Table caption="Batches of redemption codes">
            <thead>
              <tr>
                <th scope="col">Made</th>
                <th scope="col">Credits</th>
                <th scope="col">Used</th>
                <th scope="col">Expires</th>
                <th scope="col">Note</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.batch}>
                  <td>{when(r.created_at)}</td>
                  <td>{num(r.credits)}</td>
                  <td>
                    {num(r.used)} of {num(r.count * r.uses_per_code)}
                  </td>
                  <td>{when(r.expires_at)}</td>
                  <td>{r.note ?? '—'}</td>
                  <td>{r.disabled_at ? `disabled ${when(r.disabled_at)}` : 'live'}</td>
                  <td>
                    {!r.disabled_at && (
                      <button
                        type="button"
                        class="danger"
                        onClick={() => disable.start(r.batch)}
                        aria-label={`Disable the batch made ${when(r.created_at)}`}
                      >
                        Disable
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Section>
    </>
  );
}
