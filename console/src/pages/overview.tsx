/** The last 24 hours at a glance: requests, errors and credits by hour; tasks and channels by state. */
import { get } from '../api';
import { BarChart } from '../chart';
import { go } from '../router';
import { ErrorNote, Loading, PageHeader, Section, State, num, useLoad } from '../ui';

interface Overview {
  totals: { requests: number; errors: number; credits: number };
  hours: { hour: string; requests: number; errors: number; credits: number }[];
  tasks: Record<string, number>;
  channels: Record<string, number>;
}

const hourOf = (iso: string) => `${new Date(iso).getHours().toString().padStart(2, '0')}h`;

export function Overview() {
  const { data, error } = useLoad(() => get<Overview>('/overview'), []);
  return (
    <>
      <PageHeader title="Overview">The last 24 hours, by hour (your local time).</PageHeader>
      <ErrorNote error={error} />
      {!data && !error && <Loading what="the overview" />}
      {data && (
        <>
          <div class="stats">
            <Stat label="Requests" value={data.totals.requests} />
            <Stat label="Errors" value={data.totals.errors} />
            <Stat label="Credits spent" value={data.totals.credits} />
          </div>
          {data.totals.requests === 0 && (
            <p class="empty">
              No requests in the last 24 hours. Create a client token on{' '}
              <a href="/console/tokens" onClick={nav('tokens')}>
                Tokens
              </a>{' '}
              and make a first call, or try one from the{' '}
              <a href="/console/playground" onClick={nav('playground')}>
                Playground
              </a>
              .
            </p>
          )}
          <div class="grid-2">
            <Section title="Requests and errors">
              <BarChart
                title="Requests and errors by hour"
                labels={data.hours.map((h) => hourOf(h.hour))}
                series={[
                  { label: 'requests', tone: 'bar-a', values: data.hours.map((h) => h.requests) },
                  { label: 'errors', tone: 'bar-c', values: data.hours.map((h) => h.errors) },
                ]}
              />
            </Section>
            <Section title="Credits">
              <BarChart
                title="Credits spent by hour"
                labels={data.hours.map((h) => hourOf(h.hour))}
                series={[{ label: 'credits', tone: 'bar-b', values: data.hours.map((h) => h.credits) }]}
              />
            </Section>
            <Section title="Tasks by state">
              <Counts counts={data.tasks} page="tasks" />
            </Section>
            <Section title="Channels by state">
              <Counts counts={data.channels} page="channels" />
            </Section>
          </div>
        </>
      )}
    </>
  );
}

const nav = (page: string) => (event: Event) => {
  event.preventDefault();
  go(page);
};

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div class="stat">
      <span class="stat-value">{num(value)}</span>
      <span class="stat-label">{label}</span>
    </div>
  );
}

function Counts({ counts, page }: { counts: Record<string, number>; page: string }) {
  return (
    <>
      <ul class="counts">
        {Object.entries(counts).map(([state, count]) => (
          <li key={state}>
            <State value={state} /> <strong>{num(count)}</strong>
          </li>
        ))}
      </ul>
      <a href={`/console/${page}`} onClick={nav(page)}>
        Open {page}
      </a>
    </>
  );
}
