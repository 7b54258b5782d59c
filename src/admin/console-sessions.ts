/**
 * The console's sessions: an admin token, given once at sign-in, is exchanged for a random
 * session id carried by an HttpOnly, SameSite=Strict cookie, so that the page never keeps the
 * token. A session lives 8 hours in the database (`console_sessions`, so that any node, and the
 * same node after a restart, knows it) and ends at sign-out. The row keeps the hash of the
 * session id and the admin token's hash, never either secret. Each request made with it is
 * authenticated anew by that hash, so a token revoked or disabled since sign-in is refused at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../store/database.js';

export const SESSION_COOKIE = 'switchyard_console';
export const SESSION_MS = 8 * 3600_000;

const keyOf = (id: string) => createHash('sha256').update(id).digest('base64url');

export class ConsoleSessions {
  constructor(private readonly db: Db) {}

  /** Opens a session for the admin token with hash `tokenHash`; answers its id and end. */
  async open(tokenHash: string, now = Date.now()): Promise<{ id: string; until: number }> {
    await this.db.deleteFrom('console_sessions').where('expires_at', '<=', now).execute();
    const id = randomBytes(32).toString('base64url');
    const until = now + SESSION_MS;
    await this.db
      .insertInto('console_sessions')
      .values({ id_hash: keyOf(id), token_hash: tokenHash, expires_at: until })
      .execute();
    return { id, until };
  }

  /** The hash of the admin token a live session stands for. */
  async tokenHashOf(id: string, now = Date.now()): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('console_sessions')
      .select('token_hash')
      .where('id_hash', '=', keyOf(id))
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.token_hash;
  }

  async close(id: string): Promise<void> {
    await this.db.deleteFrom('console_sessions').where('id_hash', '=', keyOf(id)).execute();
  }
}

/** A cookie's value from a Cookie header. */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * A request that changes something with the session cookie must come from the console's own
 * origin: SameSite=Strict already keeps the cookie off cross-site requests, and this check
 * refuses the rest (a missing Origin included; browsers send it on every POST, PATCH and DELETE).
 * The console's origin is the server's public URL (`public_base_url`, as a proxy in front of it
 * serves the page), or any origin on the host the request was sent to: `host` is the Host header,
 * or a trusted proxy's X-Forwarded-Host. The host alone is compared there, since behind a TLS
 * proxy that does not say so the page is https while this process hears http.
 */
export function sameOrigin(
  origin: string | undefined,
  host: string | undefined,
  publicBase?: string,
): boolean {
  if (!origin) return false;
  try {
    const sent = new URL(origin);
    if (publicBase !== undefined && sent.origin === new URL(publicBase).origin) return true;
    return host !== undefined && sent.host === host;
  } catch {
    return false;
  }
}
