/**
 * A bar chart in SVG, drawn here rather than by a charting library (which would be most of the
 * page's weight). Screen readers get its summary as the image's label and the numbers in a
 * table the page shows beside it.
 */
export interface Series {
  label: string;
  /** A CSS class that colours the bars (`bar-a`, `bar-b`, `bar-c`). */
  tone: string;
  values: number[];
}

interface Props {
  title: string;
  labels: string[];
  series: Series[];
  height?: number;
}

const W = 640;

export function BarChart({ title, labels, series, height = 160 }: Props) {
  const top = Math.max(1, ...series.flatMap((s) => s.values));
  const pad = { left: 40, bottom: 22, top: 8 };
  const plot = height - pad.bottom - pad.top;
  const slot = (W - pad.left) / Math.max(1, labels.length);
  const bar = Math.max(1, (slot * 0.8) / series.length);
  const totals = series.map((s) => `${s.label} ${s.values.reduce((a, b) => a + b, 0).toLocaleString()}`);
  const every = Math.ceil(labels.length / 8);
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${height}`} role="img" aria-label={`${title}: ${totals.join(', ')}`}>
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line
              class="grid"
              x1={pad.left}
              x2={W}
              y1={pad.top + plot * (1 - f)}
              y2={pad.top + plot * (1 - f)}
            />
            <text class="axis" x={pad.left - 6} y={pad.top + plot * (1 - f) + 4} text-anchor="end">
              {Math.round(top * f).toLocaleString()}
            </text>
          </g>
        ))}
        {labels.map((label, i) => (
          <g key={label}>
            {series.map((s, j) => {
              const h = ((s.values[i] ?? 0) / top) * plot;
              return (
                <rect
                  key={s.label}
                  class={s.tone}
                  x={pad.left + i * slot + slot * 0.1 + j * bar}
                  y={pad.top + plot - h}
                  width={bar}
                  height={h}
                >
                  <title>{`${label}: ${s.label} ${s.values[i] ?? 0}`}</title>
                </rect>
              );
            })}
            {i % every === 0 && (
              <text class="axis" x={pad.left + i * slot + slot / 2} y={height - 6} text-anchor="middle">
                {label}
              </text>
            )}
          </g>
        ))}
      </svg>
      <figcaption>
        {series.map((s) => (
          <span key={s.label} class="legend">
            <span class={`swatch ${s.tone}`} aria-hidden="true" />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** Bars across the page, one row per group: categories read better this way than under columns. */
export function RowChart({ title, rows, series }: { title: string; rows: string[]; series: Series[] }) {
  const tops = series.map((s) => Math.max(1, ...s.values));
  return (
    <figure class="row-chart">
      <table>
        <caption class="sr-only">{title}</caption>
        <thead class="sr-only">
          <tr>
            <th scope="col">Group</th>
            {series.map((s) => (
              <th scope="col" key={s.label}>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((label, i) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              {series.map((s, j) => (
                <td key={s.label}>
                  <span
                    class={`hbar ${s.tone}`}
                    style={{ width: `${((s.values[i] ?? 0) / (tops[j] ?? 1)) * 100}%` }}
                  />
                  <span class="hbar-value">{(s.values[i] ?? 0).toLocaleString()}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <figcaption>
        {series.map((s) => (
          <span key={s.label} class="legend">
            <span class={`swatch ${s.tone}`} aria-hidden="true" />
            {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
