/** The price table and the local engines as configured; read-only (change them in the configuration). */
import { get } from '../api';
import { ErrorNote, Loading, PageHeader, Section, Table, useLoad } from '../ui';

type Price =
  | number
  | {
      default?: number;
      models?: Record<string, number>;
      actions?: Record<string, number>;
      per_1k_tokens?: { prompt: number; completion: number };
      per_1k?: { input: number; output: number; cached?: number };
      per_second?: Record<string, number>;
      per_song?: number;
      per_minute?: number;
      per_image?: number;
    };

interface Settings {
  prices: Record<string, Price>;
  engines: { engine: string; families: string[]; settings: Record<string, unknown> }[];
}

function describe(price: Price): string {
  if (typeof price === 'number') return `${price}`;
  const parts = [`${price.default ?? 0}`];
  if (price.per_1k_tokens)
    parts.push(
      `+ ${price.per_1k_tokens.prompt} per 1k prompt tokens, ${price.per_1k_tokens.completion} per 1k completion tokens`,
    );
  if (price.per_1k)
    parts.push(
      `+ per 1k tokens: ${price.per_1k.input} input, ${price.per_1k.cached ?? price.per_1k.input} cached, ${price.per_1k.output} output`,
    );
  const bands = Object.entries(price.per_second ?? {});
  if (bands.length > 0)
    parts.push(`+ per second: ${bands.map(([band, rate]) => `${band} ${rate}`).join(', ')}`);
  if (price.per_song !== undefined) parts.push(`+ ${price.per_song} per song`);
  if (price.per_minute !== undefined) parts.push(`+ ${price.per_minute} per minute`);
  if (price.per_image !== undefined) parts.push(`+ ${price.per_image} per image`);
  for (const [model, credits] of Object.entries(price.models ?? {})) parts.push(`${model}: ${credits}`);
  for (const [action, credits] of Object.entries(price.actions ?? {})) parts.push(`${action}: ${credits}`);
  return parts.join(' · ');
}

export function Settings() {
  const { data, error } = useLoad(() => get<Settings>('/settings'), []);
  return (
    <>
      <PageHeader title="Settings">
        Read-only: prices and engines come from the configuration file (docs/configuration.md).
      </PageHeader>
      <ErrorNote error={error} />
      {!data && !error && <Loading what="settings" />}
      {data && (
        <div class="grid-2">
          <Section title="Prices (credits)">
            <Table caption="Price table">
              <thead>
                <tr>
                  <th scope="col">Operation</th>
                  <th scope="col">Credits per request</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(data.prices).map(([key, price]) => (
                  <tr key={key}>
                    <td>
                      <code>{key}</code>
                    </td>
                    <td>{describe(price)}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Section>
          <Section title="Local engines">
            <ul class="engines">
              {data.engines.map((e) => (
                <li key={e.engine}>
                  <strong>{e.engine}</strong> <span class="muted">({e.families.join(', ')})</span>
                  {Object.keys(e.settings).length > 0 ? (
                    <dl class="facts">
                      {Object.entries(e.settings).map(([k, v]) => (
                        <>
                          <dt key={`${k}-t`}>{k}</dt>
                          <dd key={`${k}-d`}>{v === null ? 'default' : String(v)}</dd>
                        </>
                      ))}
                    </dl>
                  ) : (
                    <p class="muted">No settings.</p>
                  )}
                </li>
              ))}
            </ul>
          </Section>
        </div>
      )}
    </>
  );
}
