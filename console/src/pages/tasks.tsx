/** Tasks: filters, progress that moves while they run, request and result, redeliver and cancel. */
import { useEffect, useState } from 'preact/hooks';
import { get, post, query, type Page } from '../api';
import { ResultView } from '../result-view';
import {
  Empty,
  ErrorNote,
  Field,
  Loading,
  PageHeader,
  Section,
  shortId,
  State,
  Table,
  useAction,
  useLoad,
  when,
} from '../ui';

interface TaskRow {
  id: string;
  token: string;
  family: string;
  operation: string;
  model: string | null;
  action: string | null;
  state: string;
  progress: { fraction: number; stage: string } | null;
  credits: number;
  created_at: string | null;
  finished_at: string | null;
  error: { code: string; message: string } | null;
  callback: { url: string; state: string | null; attempts: number; last_status: number | null } | null;
}

type TaskDetail = TaskRow & { request: unknown; response: unknown };

const STATES = ['queued', 'running', 'succeeded', 'failed', 'expired'];
const FAMILIES = ['tune', 'clip', 'dance', 'maxi', 'qrart'];
const live = (state: string) => state === 'queued' || state === 'running';

/** Reloads every second while `active`. */
function usePoll(active: boolean, reload: () => void) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(reload, 1000);
    return () => clearInterval(timer);
  }, [active, reload]);
}

export function Progress({ task }: { task: Pick<TaskRow, 'state' | 'progress'> }) {
  const fraction = task.state === 'succeeded' ? 1 : (task.progress?.fraction ?? 0);
  return (
    <span class="progress-cell">
      <progress max={1} value={fraction} aria-label={`progress ${Math.round(fraction * 100)}%`} />
      <span class="muted">
        {Math.round(fraction * 100)}%
        {task.progress?.stage && live(task.state) ? ` ${task.progress.stage}` : ''}
      </span>
    </span>
  );
}

export function Tasks() {
  const [filters, setFilters] = useState({ state: '', family: '', token: '' });
  const [selected, setSelected] = useState<string>();
  const list = useLoad(
    () => get<Page<TaskRow>>(`/tasks${query({ ...filters, limit: 100 })}`),
    [filters.state, filters.family, filters.token],
  );
  const rows = list.data?.rows ?? [];
  usePoll(
    rows.some((t) => live(t.state)),
    list.reload,
  );
  const filtered = Object.values(filters).some(Boolean);

  return (
    <>
      <PageHeader title="Tasks">Generations that run in the background: music, video and QR art.</PageHeader>
      <Section title="Filters">
        <form class="filters" onSubmit={(e) => e.preventDefault()}>
          <Field label="State">
            <select
              value={filters.state}
              onChange={(e) => setFilters({ ...filters, state: e.currentTarget.value })}
            >
              <option value="">any</option>
              {STATES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </Field>
          <Field label="Family">
            <select
              value={filters.family}
              onChange={(e) => setFilters({ ...filters, family: e.currentTarget.value })}
            >
              <option value="">any</option>
              {FAMILIES.map((f) => (
                <option key={f}>{f}</option>
              ))}
            </select>
          </Field>
          <Field label="Token" hint="name or id">
            <input
              value={filters.token}
              onChange={(e) => setFilters({ ...filters, token: e.currentTarget.value })}
            />
          </Field>
        </form>
      </Section>
      <ErrorNote error={list.error} />
      {!list.data && !list.error && <Loading what="tasks" />}
      {list.data && rows.length === 0 && (
        <Empty title={filtered ? 'No task matches these filters.' : 'No tasks yet.'}>
          Tasks appear when a client asks for music, a video or QR art: try one from the Playground.
        </Empty>
      )}
      {rows.length > 0 && (
        <Table caption="Tasks">
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Operation</th>
              <th scope="col">Token</th>
              <th scope="col">State</th>
              <th scope="col">Progress</th>
              <th scope="col">Credits</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t) => (
              <tr key={t.id} data-task={t.id} class={selected === t.id ? 'selected' : ''}>
                <td>
                  <button
                    type="button"
                    class="link"
                    aria-expanded={selected === t.id}
                    onClick={() => setSelected(selected === t.id ? undefined : t.id)}
                  >
                    <code>{shortId(t.id)}</code>
                  </button>
                </td>
                <td>
                  {t.operation}
                  {t.action && <span class="muted"> · {t.action}</span>}
                </td>
                <td>{t.token}</td>
                <td>
                  <State value={t.state} />
                  {t.error && <span class="muted"> {t.error.code}</span>}
                </td>
                <td>
                  <Progress task={t} />
                </td>
                <td>{t.credits}</td>
                <td>{when(t.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {selected && <TaskPanel key={selected} id={selected} onChanged={list.reload} />}
    </>
  );
}

function TaskPanel({ id, onChanged }: { id: string; onChanged: () => void }) {
  const task = useLoad(() => get<TaskDetail>(`/tasks/${id}`), [id]);
  usePoll(task.data !== undefined && live(task.data.state), task.reload);
  const redeliver = useAction(() => post<TaskDetail>(`/tasks/${id}/redeliver`));
  const cancel = useAction(() => post<TaskDetail>(`/tasks/${id}/cancel`));
  const t = task.data;
  return (
    <Section title={`Task ${shortId(id)}`} id="task-detail">
      <ErrorNote error={task.error} />
      {t && (
        <>
          <dl class="facts">
            <dt>Id</dt>
            <dd>
              <code>{t.id}</code>
            </dd>
            <dt>State</dt>
            <dd>
              <State value={t.state} /> <Progress task={t} />
            </dd>
            {t.error && (
              <>
                <dt>Error</dt>
                <dd class="error-text">
                  {t.error.code}: {t.error.message}
                </dd>
              </>
            )}
            <dt>Callback</dt>
            <dd>
              {t.callback
                ? `${t.callback.url} · ${t.callback.state ?? 'waiting'} · ${t.callback.attempts} attempts${t.callback.last_status ? ` · last ${t.callback.last_status}` : ''}`
                : 'none asked for'}
            </dd>
          </dl>
          <div class="actions">
            <button
              type="button"
              disabled={!live(t.state) || cancel.busy}
              onClick={async () => {
                if (await cancel.start()) {
                  task.reload();
                  onChanged();
                }
              }}
            >
              Cancel task
            </button>
            <button
              type="button"
              disabled={!t.callback || live(t.state) || redeliver.busy}
              onClick={async () => {
                if (await redeliver.start()) task.reload();
              }}
            >
              Send the callback again
            </button>
          </div>
          <ErrorNote error={cancel.error ?? redeliver.error} />
          {redeliver.result && <p role="status">Callback queued again.</p>}
          <div class="grid-2">
            <div>
              <h3>Request</h3>
              <pre class="json">{JSON.stringify(t.request, null, 2)}</pre>
            </div>
            <div>
              <h3>Result</h3>
              {t.response ? <ResultView value={t.response} /> : <p class="muted">Not ended yet.</p>}
            </div>
          </div>
        </>
      )}
    </Section>
  );
}
