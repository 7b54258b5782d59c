/** Rows as a readable table: a header, columns padded to their widest cell, numbers to the right. */
export function table(rows: Record<string, unknown>[], columns: string[]): string {
  if (rows.length === 0) return '(none)\n';
  const cell = (value: unknown) =>
    value === null || value === undefined
      ? '-'
      : typeof value === 'object'
        ? JSON.stringify(value)
        : String(value);
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => (r[i] as string).length)));
  const numeric = columns.map((_, i) =>
    rows.every((row) => typeof row[columns[i] as string] === 'number' || row[columns[i] as string] === null),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => (numeric[i] ? v.padStart(widths[i] as number) : v.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  return `${[line(columns), ...cells.map(line)].join('\n')}\n`;
}
