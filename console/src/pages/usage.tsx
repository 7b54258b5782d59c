/** Usage grouped by token, operation, model or day over a date range, as a chart, a table and CSV. */
import { useState } from 'preact/hooks';
import { ADMIN, get, query } from '../api';
import { RowChart } from '../chart';
import { Empty, ErrorNote, Field, Loading, PageHeader, Section, Table, ms, num, useLoad } from '../ui';

const GROUPS = ['token', 'operation', 'model', 'day'] as const;
type Group = (typeof GROUPS)[number];

interface UsageRow {
  token?: string;
  operation?: string;
  model?: string | null;
  day?: string;
  requests: number;
  succeeded: number;
  failed: number;
  credits: number;
  p50_ms: number | null;
  p95_ms: number | null;
}

const isoDay = (offsetDays: number) =>
  new Date(Date.now() + offsetDays * 86400_000).toISOString().slice(0, 10);

export function Usage() {
  const [groups, setGroups] = useState<Group[]>(['token', 'operation']);
  const [from, setFrom] = useState(isoDay(-6));
  const [to, setTo] = useState(isoDay(0));
  const params = {
    group_by: groups.join(','),
    from: from ? new Date(`${from}T00:00:00`).toISOString() : undefined,
    to: to ? new Date(`${to}T23:59:59.999`).toISOString() : undefined,
  };
  const usage = useLoad(() => get<{ rows: UsageRow[] }>(`/usage${query(params)}`), [groups.join(), from, to]);
  const toggle = (group: Group) =>
    setGroups(
      groups.includes(group)
        ? groups.filter((g) => g !== group)
        : GROUPS.filter((g) => g === group || groups.includes(g)),
    );
  const rows = usage.data?.rows ?? [];
  const labelOf = (row: UsageRow) => groups.map((g) => row[g] ?? '—').join(' · ') || 'all';

  return (
    <>
      <PageHeader title="Usage">Requests and credits, grouped as you choose.</PageHeader>
      <Section title="Range and grouping">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <fieldset class="groups">
            <legend>Group by</legend>
            {GROUPS.map((g) => (
              <label class="check" key={g}>
                <input type="checkbox" checked={groups.includes(g)} onChange={() => toggle(g)} />
                {g}
              </label>
            ))}
          </fieldset>
          <Field label="From">
            <input type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
          </Field>
          <Field label="To">
            <input type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
          </Field>
          <a
            class="button"
            href={`${ADMIN}/usage${query({ ...params, format: 'csv' })}`}
            download="usage.csv"
          >
            Download CSV
          </a>
        </form>
      </Section>
      <ErrorNote error={usage.error} />
      {!usage.data && !usage.error && <Loading what="usage" />}
      {usage.data && rows.length === 0 && (
        <Empty title="No usage in this range.">
          Widen the dates, or make a request (the Playground runs any operation) and come back.
        </Empty>
      )}
      {rows.length > 0 && (
        <>
          <Section title="Credits and requests">
            <RowChart
              title="Requests and credits by group"
              rows={rows.slice(0, 20).map(labelOf)}
              series={[
                { label: 'requests', tone: 'bar-a', values: rows.slice(0, 20).map((r) => r.requests) },
                { label: 'credits', tone: 'bar-b', values: rows.slice(0, 20).map((r) => r.credits) },
              ]}
            />
          </Section>
          <Section title="Rows">
            <Table caption="Usage rows">
              <thead>
                <tr>
                  {groups.map((g) => (
                    <th scope="col" key={g}>
                      {g}
                    </th>
                  ))}
                  <th scope="col">Requests</th>
                  <th scope="col">Succeeded</th>
                  <th scope="col">Failed</th>
                  <th scope="col">Credits</th>
                  <th scope="col">p50</th>
                  <th scope="col">p95</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={labelOf(row)}>
                    {groups.map((g) => (
                      <td key={g}>{row[g] ?? '—'}</td>
                    ))}
                    <td>{num(row.requests)}</td>
                    <td>{num(row.succeeded)}</td>
                    <td>{num(row.failed)}</td>
                    <td>{num(row.credits)}</td>
                    <td>{ms(row.p50_ms)}</td>
                    <td>{ms(row.p95_ms)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Section>
        </>
      )}
    </>
  );
}
