/**
 * Failed authentication, watched per client address. A request that carried a credential (a
 * bearer token, the console's session cookie, a console sign-in) and was answered 401 counts as a
 * failure of its address (`request.ip`: the peer, or what a trusted proxy forwarded). Past
 * `LIMIT` failures in a minute, the address's requests that carry a credential are answered 429
 * with `Retry-After` until the minute ends, before any token is looked up: guessing tokens costs
 * the guesser time, and the database nothing. A request whose credential holds is never slowed
 * while its address is not refused: it costs a look at the size of a map that holds only the
 * addresses that failed within the last minute (at most `ADDRESSES` of them), and its address is
 * worked out only when that map is not empty.
 *
 * A failure on the admin API (a bad bearer token or an ended session, a refused sign-in) is
 * written to the audit with the address and the reason, never the credential. The counts are this
 * node's: behind a load balancer, an address is refused by each node after as many failures there.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../store/database.js';
import { ServiceError } from '../errors.js';
import { ADMIN_BASE } from '../admin/routes.js';
import { audit } from '../admin/audit.js';
import { SESSION_COOKIE } from '../admin/console-sessions.js';

/** Failures an address may have in a window before its credentials are refused. */
export const LIMIT = 10;
const WINDOW_MS = 60_000;
/** Addresses tracked at most; past it the oldest windows go first. */
export const ADDRESSES = 100_000;

interface Window {
  start: number;
  failures: number;
}

export class FailedSignIns {
  private readonly windows = new Map<string, Window>();

  /**
   * No address has failed within the last minute: nearly always, and then no request needs
   * looking at. Ended windows are dropped first, oldest first: a Map keeps insertion order, and
   * a window is inserted when it starts.
   */
  quiet(at?: number): boolean {
    if (this.windows.size === 0) return true;
    const now = at ?? Date.now();
    for (const [address, window] of this.windows) {
      if (now - window.start < WINDOW_MS) break;
      this.windows.delete(address);
    }
    return this.windows.size === 0;
  }

  /** Seconds until `address` may try again, when it has failed too often; else undefined. */
  refusal(address: string, now = Date.now()): number | undefined {
    const window = this.windows.get(address);
    if (!window) return undefined;
    if (now - window.start >= WINDOW_MS) {
      this.windows.delete(address);
      return undefined;
    }
    return window.failures >= LIMIT ? (window.start + WINDOW_MS - now) / 1000 : undefined;
  }

  failed(address: string, now = Date.now()): void {
    const window = this.windows.get(address);
    if (window && now - window.start < WINDOW_MS) {
      window.failures += 1;
      return;
    }
    this.windows.delete(address);
    // Still full once the ended windows are gone: the oldest goes.
    if (this.windows.size >= ADDRESSES && !this.quiet(now))
      this.windows.delete(this.windows.keys().next().value as string);
    this.windows.set(address, { start: now, failures: 1 });
  }
}

const SIGN_IN = `${ADMIN_BASE}/session`;

function carriesCredential(request: FastifyRequest): boolean {
  if (request.headers.authorization !== undefined) return true;
  if (request.method === 'POST' && request.url === SIGN_IN) return true;
  return request.url.startsWith(`${ADMIN_BASE}/`) && (request.headers.cookie ?? '').includes(SESSION_COOKIE);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The code of the error this request was answered with (http/errors.ts). */
    answeredCode: string | null;
  }
}

export function registerFailedSignIns(
  app: FastifyInstance,
  db: Db,
  onError: (error: unknown) => void,
  failures = new FailedSignIns(),
): void {
  app.decorateRequest('answeredCode', null);
  app.addHook('onRequest', (request, _reply, done) => {
    // request.ip is worked out from X-Forwarded-For behind a trusted proxy: only read when needed.
    if (failures.quiet() || !carriesCredential(request)) return done();
    const wait = failures.refusal(request.ip);
    if (wait === undefined) return done();
    done(
      new ServiceError('too_many_requests', 'too many failed sign-ins from this address; try again later', {
        retryAfter: wait,
      }),
    );
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (reply.statusCode !== 401 || !carriesCredential(request)) return done();
    failures.failed(request.ip);
    if (request.url.startsWith(`${ADMIN_BASE}/`)) {
      audit(db, { name: 'unknown', id: null }, 'admin.auth_failed', null, {
        address: request.ip,
        path: request.url.split('?')[0],
        reason: request.answeredCode,
      }).catch(onError);
    }
    done();
  });
}
