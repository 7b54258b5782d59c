/**
 * The request a task record keeps: as sent, minus secrets. Credentials and secret-looking query
 * values are removed from URLs (a callback URL often carries its own token), and inline `data:`
 * media is reduced to its type and size, so records stay small and safe to show. Everything else
 * in a URL is kept byte for byte: the client finds the URL it sent, not the parser's rewrite of it
 * (no added `/`, no lowercased scheme, no punycode host, no re-encoded query).
 */
const SECRET_PARAM = /token|key|secret|signature|sig|auth|password|credential/i;
const INLINE_KEEP = 128;
/**
 * The scheme and the slashes before the authority: for http(s) the URL parser skips any run of `/`
 * and `\`, so `http:///user:pass@host` and `http:\\user:pass@host` carry credentials too.
 */
const SCHEME = /^https?:[/\\]*/i;
/** Where the authority of an http(s) URL ends; the URL parser reads `\` as `/` for these schemes. */
const AUTHORITY_END = /[/\\?#]/;

/** The URL without `user:password@`; the parser splits the authority at its last `@`. */
function withoutCredentials(url: string): string {
  const start = (SCHEME.exec(url) as RegExpExecArray)[0].length;
  const end = url.slice(start).search(AUTHORITY_END);
  const authority = end === -1 ? url.slice(start) : url.slice(start, start + end);
  const at = authority.lastIndexOf('@');
  return at === -1 ? url : url.slice(0, start) + url.slice(start + at + 1);
}

/** The parameter's value replaced when its name looks secret, as the server would decode it. */
function redactParam(param: string): string {
  const equals = param.indexOf('=');
  if (equals === -1) return param;
  // Decoded the way the URL parser does: tabs and newlines dropped, `+` and `%xx` decoded.
  const [name = ''] = new URLSearchParams(param.slice(0, equals).replace(/[\t\n\r]/g, '')).keys();
  return SECRET_PARAM.test(name) ? `${param.slice(0, equals)}=redacted` : param;
}

/** The query between the first `?` and the fragment, each secret value replaced in place. */
function withoutSecretParams(url: string): string {
  const hash = url.indexOf('#');
  const end = hash === -1 ? url.length : hash;
  const question = url.slice(0, end).indexOf('?');
  if (question === -1) return url;
  const query = url
    .slice(question + 1, end)
    .split('&')
    .map(redactParam)
    .join('&');
  return url.slice(0, question + 1) + query + url.slice(end);
}

/**
 * A URL as any view of a task shows it (the client's own, the operator's): without credentials in
 * its authority or secret-looking query values. Text that is not an http(s) URL is kept as it is.
 */
export function redactUrl(url: string): string {
  if (!SCHEME.test(url)) return url;
  return withoutSecretParams(withoutCredentials(url));
}

function redactString(value: string): string {
  if (/^data:/i.test(value)) {
    if (value.length <= INLINE_KEEP) return value;
    const header = value.slice(0, Math.min(value.indexOf(',') + 1 || INLINE_KEEP, INLINE_KEEP));
    return `${header}… (${value.length} characters)`;
  }
  return redactUrl(value);
}

export function redactRequest(value: unknown): unknown {
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) return value.map(redactRequest);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactRequest(v)]));
  }
  return value;
}
