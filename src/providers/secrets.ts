/**
 * A channel's credentials blanked out of text that leaves its calls: what an upstream answers can
 * reach the log, a channel's `auto_reason` and the operator's alerts, and an upstream may echo
 * what it was sent. The channel's key and its parts are blanked, and so is every credential made
 * from it (a signed JWT, a Basic pair, a signed header): the credential headers a request carried
 * are blanked out of its answer, and anything shaped like a JWT or a bearer or Basic token is
 * blanked wherever it appears, since a token signed per call cannot be listed in advance.
 */

/** A compact JWT: three base64url parts, the first a JSON object (`{"…` is `eyJ`). */
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g;
/** A credential after its scheme, as an Authorization header carries it. */
const SCHEMED = /\b(Bearer|Basic)\s+[\w\-.~+/]+=*/gi;
/** The request headers that carry a credential, as the adapters send them. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-api-key', 'api-key']);

/** `text` with every secret, and anything shaped like a JWT or a schemed token, blanked out. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  // Longest first: a key of the form ACCESS:SECRET is blanked whole before its parts.
  const ordered = secrets.filter((s) => s !== '').sort((a, b) => b.length - a.length);
  return ordered
    .reduce((out, secret) => out.split(secret).join('***'), text)
    .replace(JWT, '***')
    .replace(SCHEMED, '$1 ***');
}

/** A channel key as secrets: the key, and the parts of an `ACCESS:SECRET` key (Kling's), which travel alone. */
export function keySecrets(key: string | undefined): string[] {
  if (key === undefined || key === '') return [];
  return key.includes(':') ? [key, ...key.split(':')] : [key];
}

/** The credentials a request's headers carry: each value, or the token after its scheme. */
export function credentialsOf(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).flatMap(([name, value]) =>
    CREDENTIAL_HEADERS.has(name.toLowerCase()) ? [/^\w+\s+(\S+)$/.exec(value)?.[1] ?? value] : [],
  );
}
