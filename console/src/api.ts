/**
 * The admin API as the console calls it: same origin, the session cookie sent by the browser
 * (the page never holds the admin token), errors turned into `ApiError` with the field details
 * the server names. A 401 means the session has ended: the app returns to the sign-in form.
 */
export const ADMIN = '/admin/api/v1';

export interface Violation {
  field: string;
  rule: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Violation[] = [],
  ) {
    super(message);
  }
}

type Listener = (message: string) => void;
let onSignedOut: Listener = () => {};
export const whenSignedOut = (listener: Listener) => {
  onSignedOut = listener;
};

export async function errorOf(response: Response): Promise<ApiError> {
  const text = await response.text();
  try {
    const { error } = JSON.parse(text) as { error: { code: string; message: string; details?: Violation[] } };
    return new ApiError(response.status, error.code, error.message, error.details);
  } catch {
    return new ApiError(response.status, 'http', `${response.status} ${response.statusText || text}`);
  }
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${ADMIN}${path}`, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const error = await errorOf(response);
    if (response.status === 401 && path !== '/session') onSignedOut(error.message);
    throw error;
  }
  return (await response.json()) as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
export const post = <T>(path: string, body: unknown = {}) => api<T>('POST', path, body);
export const patch = <T>(path: string, body: unknown) => api<T>('PATCH', path, body);
export const del = <T>(path: string) => api<T>('DELETE', path);

/** A query string of the fields that have a value. */
export function query(fields: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields))
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface Page<T> {
  rows: T[];
  next: string | null;
}
