/**
 * The console's sessions: an admin token, given once at sign-in, is exchanged for a random
 * session id carried by an HttpOnly, SameSite=Strict cookie, so that the page never keeps the
 * token. A session lives 8 hours in this process (behind several API nodes, the console's
 * address must reach the same one: see docs/console.md) and ends at sign-out. Each request made
 * with it is authenticated anew with the token, so a token revoked or disabled since sign-in is
 * refused at once.
 */
import { createHash, randomBytes } from 'node:crypto';

export const SESSION_COOKIE = 'switchyard_console';
export const SESSION_MS = 8 * 3600_000;

interface Session {
  bearer: string;
  until: number;
}

const keyOf = (id: string) => createHash('sha256').update(id).digest('base64url');

export class ConsoleSessions {
  /** Keyed by the id's hash: the ids themselves live only in the browsers' cookies. */
  private readonly sessions = new Map<string, Session>();

  open(secret: string, now = Date.now()): { id: string; until: number } {
    this.sweep(now);
    const id = randomBytes(32).toString('base64url');
    const until = now + SESSION_MS;
    this.sessions.set(keyOf(id), { bearer: `Bearer ${secret}`, until });
    return { id, until };
  }

  /** The Authorization header a live session stands for. */
  bearerOf(id: string, now = Date.now()): string | undefined {
    const session = this.sessions.get(keyOf(id));
    if (!session) return undefined;
    if (session.until <= now) {
      this.sessions.delete(keyOf(id));
      return undefined;
    }
    return session.bearer;
  }

  close(id: string): void {
    this.sessions.delete(keyOf(id));
  }

  private sweep(now: number): void {
    for (const [key, session] of this.sessions) if (session.until <= now) this.sessions.delete(key);
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
 */
export function sameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (!origin || !host) return false;
  try {
    // The host alone: behind a TLS proxy the page is https while this process hears http.
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
