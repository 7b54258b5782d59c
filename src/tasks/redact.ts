/**
 * The request a task record keeps: as sent, minus secrets. Credentials and secret-looking query
 * parameters are removed from URLs (a callback URL often carries its own token), and inline
 * `data:` media is reduced to its type and size, so records stay small and safe to show.
 */
const SECRET_PARAM = /token|key|secret|signature|sig|auth|password|credential/i;
const INLINE_KEEP = 128;

function redactString(value: string): string {
  if (value.startsWith('data:')) {
    if (value.length <= INLINE_KEEP) return value;
    const header = value.slice(0, value.indexOf(',') + 1 || INLINE_KEEP);
    return `${header}… (${value.length} characters)`;
  }
  if (!/^https?:\/\//i.test(value)) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value;
  }
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAM.test(name)) url.searchParams.set(name, 'redacted');
  }
  return url.href;
}

export function redactRequest(value: unknown): unknown {
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map(redactRequest);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactRequest(v)]));
  }
  return value;
}
