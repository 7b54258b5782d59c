/** The pieces every page is made of: loading state, errors where they happen, empty states, tables. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `keys` change and on `reload`; keeps the last data while reloading. */
export function useLoad<T>(load: () => Promise<T>, keys: unknown[]): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (!live) return;
        setError(failure);
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...keys, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data, error, loading, reload };
}

/** An action's state: running, its error, and what it answered. */
export function useAction<A extends unknown[], T>(run: (...args: A) => Promise<T>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [result, setResult] = useState<T>();
  const start = async (...args: A): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      const value = await run(...args);
      setResult(value);
      return value;
    } catch (failure) {
      setError(failure);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, result, start, clear: () => setResult(undefined) };
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError && error.code === 'http') return `The server answered ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** An error, said where it happened. */
export function ErrorNote({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <p class="error" role="alert">
      {messageOf(error)}
    </p>
  );
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children && <p>{children}</p>}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children && <p class="muted">{children}</p>}
    </header>
  );
}

export function Section({
  title,
  children,
  id,
}: {
  title: string;
  children: ComponentChildren;
  id?: string;
}) {
  const heading = id ?? `s-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section class="card" aria-labelledby={heading}>
      <h2 id={heading}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * A data table. On a phone each row is drawn as a card of label and value (style.css, `.stacks`)
 * rather than scrolled sideways: the labels are the column headings, copied onto the cells after
 * every render.
 */
export function Table({ caption, children }: { caption: string; children: ComponentChildren }) {
  const table = useRef<HTMLTableElement>(null);
  useLayoutEffect(() => {
    const headings = [...(table.current?.tHead?.rows[0]?.cells ?? [])].map((th) => th.textContent ?? '');
    for (const body of table.current?.tBodies ?? [])
      for (const row of body.rows)
        for (const cell of row.cells) cell.dataset.label = headings[cell.cellIndex] ?? '';
  });
  return (
    <div class="table-wrap" role="region" aria-label={caption} tabIndex={0}>
      <table ref={table} class="stacks">
        <caption class="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function Field({
  label,
  children,
  hint,
}: {
  label: string;
  children: ComponentChildren;
  hint?: string;
}) {
  return (
    <label class="field">
      <span class="field-label">{label}</span>
      {children}
      {hint && <span class="hint">{hint}</span>}
    </label>
  );
}

/** A secret shown once, with a button that copies it. */
export function Secret({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // Without clipboard access (plain http on another host), the text stays selectable.
      setCopied(false);
    }
  };
  return (
    <div class="secret">
      <span class="field-label">{label}</span>
      <code data-secret>{value}</code>
      <button type="button" onClick={copy}>
        {copied ? 'Copied' : 'Copy'}
      </button>
      <span class="hint">Shown this once: keep it now.</span>
    </div>
  );
}

export const when = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' }) : '—';

export const num = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : value.toLocaleString();

export const ms = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : `${Math.round(value * 10) / 10} ms`;

export function State({ value }: { value: string }) {
  return <span class={`state state-${value}`}>{value.replace('_', ' ')}</span>;
}

/** An id shortened for a table: its last characters, since time-ordered ids share their first ones. */
export function shortId(id: string): string {
  return `…${id.slice(-8)}`;
}
