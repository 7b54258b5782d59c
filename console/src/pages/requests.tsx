/** The request log, newest first: filters, the trace id, and why a failed one failed. */
import { useState } from 'preact/hooks';
import { get, query, type Page } from '../api';
import {
  Empty,
  ErrorNote,
  Field,
  Loading,
  PageHeader,
  Section,
  shortId,
  Table,
  ms,
  useAction,
  useLoad,
  when,
} from '../ui';

interface RequestRow {
  trace_id: string;
  at: string;
  token: string;
  operation: string;
  model: string | null;
  status: number;
  success: boolean;
  credits: number;
  latency_ms: number;
  error_code: string | null;
  task_id: string | null;
}

export function Requests() {
  const [filters, setFilters] = useState({ token: '', operation: '', status: '' });
  const [applied, setApplied] = useState(filters);
  const [more, setMore] = useState<RequestRow[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const log = useLoad(async () => {
    const page = await get<Page<RequestRow>>(`/requests${query({ ...applied, limit: 50 })}`);
    setMore([]);
    setNext(page.next);
    return page;
  }, [applied]);
  const loadMore = useAction(async () => {
    const page = await get<Page<RequestRow>>(`/requests${query({ ...applied, limit: 50, before: next })}`);
    setMore([...more, ...page.rows]);
    setNext(page.next);
  });
  const rows = [...(log.data?.rows ?? []), ...more];
  const filtered = Object.values(applied).some(Boolean);

  return (
    <>
      <PageHeader title="Requests">Every request a client token made, newest first.</PageHeader>
      <Section title="Filters">
        <form
          class="filters"
          onSubmit={(e) => {
            e.preventDefault();
            setApplied(filters);
          }}
        >
          <Field label="Token" hint="name or id">
            <input
              value={filters.token}
              onInput={(e) => setFilters({ ...filters, token: e.currentTarget.value })}
            />
          </Field>
          <Field label="Operation" hint="e.g. serp.web">
            <input
              value={filters.operation}
              onInput={(e) => setFilters({ ...filters, operation: e.currentTarget.value })}
            />
          </Field>
          <Field label="Status" hint="HTTP status class">
            <select
              value={filters.status}
              onChange={(e) => setFilters({ ...filters, status: e.currentTarget.value })}
            >
              <option value="">any</option>
              <option value="2xx">2xx (answered)</option>
              <option value="4xx">4xx (refused)</option>
              <option value="5xx">5xx (failed)</option>
            </select>
          </Field>
          <button type="submit">Apply</button>
        </form>
      </Section>
      <ErrorNote error={log.error} />
      {!log.data && !log.error && <Loading what="requests" />}
      {log.data && rows.length === 0 && (
        <Empty title={filtered ? 'No request matches these filters.' : 'No requests yet.'}>
          {filtered
            ? 'Clear a filter, or check the token’s name.'
            : 'Requests appear here as client tokens call operations; the Playground makes one.'}
        </Empty>
      )}
      {rows.length > 0 && (
        <Table caption="Requests">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Token</th>
              <th scope="col">Operation</th>
              <th scope="col">Status</th>
              <th scope="col">Error</th>
              <th scope="col">Credits</th>
              <th scope="col">Latency</th>
              <th scope="col">Trace id</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.trace_id} class={r.success ? '' : 'failed'}>
                <td>{when(r.at)}</td>
                <td>{r.token}</td>
                <td>
                  {r.operation}
                  {r.model && <span class="muted"> · {r.model}</span>}
                </td>
                <td>
                  <span class={`state ${r.success ? 'state-ok' : 'state-failed'}`}>{r.status}</span>
                </td>
                <td>{r.error_code ?? ''}</td>
                <td>{r.credits}</td>
                <td>{ms(r.latency_ms)}</td>
                <td>
                  <code class="trace">{r.trace_id}</code>
                  {r.task_id && <span class="muted"> task {shortId(r.task_id)}</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <ErrorNote error={loadMore.error} />
      {next && (
        <button type="button" onClick={() => loadMore.start()} disabled={loadMore.busy}>
          Older requests
        </button>
      )}
    </>
  );
}
