/** Channels: local engines and upstreams, their state and health; probe, enable, disable. */
import { get, post } from '../api';
import { Empty, ErrorNote, Loading, PageHeader, State, Table, ms, useAction, useLoad, when } from '../ui';

interface ChannelRow {
  id: string;
  capability: string;
  kind: string;
  base_url: string | null;
  priority: number | null;
  weight: number | null;
  state: string;
  disabled_by: string | null;
  last_probe: { at: string; ok: boolean; latency_ms: number; detail: string | null } | null;
  calls: number;
  success_rate: number | null;
  p50_ms: number | null;
}

export function Channels() {
  const list = useLoad(() => get<{ rows: ChannelRow[] }>('/channels'), []);
  const act = useAction(async (id: string, action: 'probe' | 'enable' | 'disable') => {
    await post(`/channels/${encodeURIComponent(id)}/${action}`);
    list.reload();
    return { id, action };
  });
  const rows = list.data?.rows ?? [];
  return (
    <>
      <PageHeader title="Channels">
        Where each capability's requests go: local engines and upstream providers. A disabled channel is
        skipped; a family with none left answers 503.
      </PageHeader>
      <ErrorNote error={list.error} />
      <ErrorNote error={act.error} />
      {act.result && !act.busy && (
        <p role="status" class="muted">
          {act.result.id}: {act.result.action === 'probe' ? 'probed' : `${act.result.action}d`}.
        </p>
      )}
      {!list.data && !list.error && <Loading what="channels" />}
      {list.data && rows.length === 0 && (
        <Empty title="No channels.">
          Add channels to the configuration's `channels` list (docs/configuration.md).
        </Empty>
      )}
      {rows.length > 0 && (
        <Table caption="Channels">
          <thead>
            <tr>
              <th scope="col">Channel</th>
              <th scope="col">Capability</th>
              <th scope="col">State</th>
              <th scope="col">Last probe</th>
              <th scope="col">Calls (5 min)</th>
              <th scope="col">Success</th>
              <th scope="col">p50</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id} data-channel={c.id}>
                <td>
                  <strong>{c.id}</strong>
                  <div class="muted small">
                    {c.kind}
                    {c.base_url ? ` · ${c.base_url}` : ''}
                  </div>
                </td>
                <td>{c.capability}</td>
                <td>
                  <State value={c.state} />
                  {c.disabled_by && <div class="muted small">by {c.disabled_by}</div>}
                </td>
                <td>
                  {c.last_probe ? (
                    <>
                      <span class={c.last_probe.ok ? 'ok-text' : 'error-text'}>
                        {c.last_probe.ok ? 'ok' : 'failed'}
                      </span>{' '}
                      {ms(c.last_probe.latency_ms)}
                      <div class="muted small">{when(c.last_probe.at)}</div>
                    </>
                  ) : (
                    <span class="muted">never</span>
                  )}
                </td>
                <td>{c.calls}</td>
                <td>{c.success_rate === null ? '—' : `${Math.round(c.success_rate * 1000) / 10}%`}</td>
                <td>{ms(c.p50_ms)}</td>
                <td class="row-actions">
                  <button type="button" onClick={() => act.start(c.id, 'probe')} aria-label={`Probe ${c.id}`}>
                    Probe
                  </button>
                  {c.state === 'disabled' ? (
                    <button
                      type="button"
                      onClick={() => act.start(c.id, 'enable')}
                      aria-label={`Enable ${c.id}`}
                    >
                      Enable
                    </button>
                  ) : (
                    <button
                      type="button"
                      onClick={() => act.start(c.id, 'disable')}
                      aria-label={`Disable ${c.id}`}
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
    </>
  );
}
