/**
 * The console at `/console`: the web app built from `console/` (its files in `console/dist`,
 * made by `make setup`) served as static files, every path that is not a file answered with
 * the app's page so that its own routes load directly, and the session routes under
 * `/admin/api/v1/session` that exchange an admin token for the session cookie. A request to
 * the admin API without an Authorization header is authenticated with that cookie.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashOf, isOperator, type Tokens } from '../accounts/tokens.js';
import type { Db } from '../store/database.js';
import { badRequest, ServiceError } from '../errors.js';
import { ADMIN_BASE } from '../admin/routes.js';
import { audit } from '../admin/audit.js';
import {
  ConsoleSessions,
  SESSION_COOKIE,
  SESSION_MS,
  cookieOf,
  sameOrigin,
} from '../admin/console-sessions.js';

const DIST = fileURLToPath(new URL('../../console/dist/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * Everything the page loads comes from this server; media the operations answer may come from
 * `public_base_url` when that names another host (a CDN in front of `/files`).
 */
function securityPolicy(publicBase: string | undefined): string {
  const media = ["'self'", 'data:', 'blob:'];
  if (publicBase) media.push(new URL(publicBase).origin);
  return [
    "default-src 'self'",
    `img-src ${media.join(' ')}`,
    `media-src ${media.join(' ')}`,
    `connect-src ${["'self'", ...media.slice(3)].join(' ')}`,
    "style-src 'self'",
    "script-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** The built files, read once: they are few and small. */
function builtFiles(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  if (!existsSync(DIST)) return files;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.set(relative(DIST, path).split('\\').join('/'), readFileSync(path));
    }
  };
  walk(DIST);
  return files;
}

function cookie(value: string, maxAgeS: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    `Path=${ADMIN_BASE}`,
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeS}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

const sessionIdOf = (request: FastifyRequest) => cookieOf(request.headers.cookie, SESSION_COOKIE);

declare module 'fastify' {
  interface FastifyRequest {
    /** The hash of the admin token behind the request's console session (admin/routes.ts). */
    consoleToken: string | null;
  }
}

export function registerConsole(app: FastifyInstance, tokens: Tokens, db: Db, publicBase?: string): void {
  const sessions = new ConsoleSessions(db);
  app.decorateRequest('consoleToken', null);
  const files = builtFiles();
  const policy = securityPolicy(publicBase);
  /**
   * The cookie is `Secure` when the console is reached over https: the public URL says so, or
   * the request came over it (directly, or through a trusted proxy's X-Forwarded-Proto).
   */
  const secure = (request: FastifyRequest) =>
    publicBase?.startsWith('https:') === true || request.protocol === 'https';

  /** The admin token behind the request's session cookie, when it has one that still holds. */
  const signedIn = async (request: FastifyRequest) => {
    const id = sessionIdOf(request);
    if (id === undefined) return;
    const tokenHash = await sessions.tokenHashOf(id);
    if (tokenHash === undefined) {
      throw new ServiceError('invalid_token', 'the console session has ended; sign in again');
    }
    if (request.method !== 'GET' && !sameOrigin(request.headers.origin, request.host, publicBase)) {
      throw new ServiceError(
        'forbidden',
        'a change made with the console session must come from the console',
      );
    }
    request.consoleToken = tokenHash;
  };
  // Every request passes here, almost all of them not the console's: those go on at once, without
  // a promise of their own.
  app.addHook('onRequest', (request, _reply, done) => {
    const consoles =
      request.url.startsWith(`${ADMIN_BASE}/`) &&
      request.headers.authorization === undefined &&
      request.url !== `${ADMIN_BASE}/session`;
    if (!consoles) return done();
    signedIn(request).then(() => done(), done);
  });

  app.post(`${ADMIN_BASE}/session`, async (request, reply) => {
    if (!sameOrigin(request.headers.origin, request.host, publicBase)) {
      throw new ServiceError('forbidden', 'sign in from the console itself');
    }
    const body = (request.body ?? {}) as { token?: unknown };
    if (typeof body.token !== 'string' || body.token.trim() === '') {
      throw badRequest([{ field: 'token', rule: 'is required' }]);
    }
    const secret = body.token.trim();
    const token = await tokens.authenticate(`Bearer ${secret}`);
    if (!isOperator(token.role)) {
      throw new ServiceError('forbidden', 'this is a client token; the console takes an admin token');
    }
    const { id, until } = await sessions.open(hashOf(secret));
    await audit(db, { name: token.name, id: token.id }, 'console.sign_in', null, { address: request.ip });
    reply.header('set-cookie', cookie(id, SESSION_MS / 1000, secure(request)));
    return { name: token.name, expires_at: new Date(until).toISOString() };
  });

  // Who is signed in. The console asks on every load, so "nobody" is an answer (200), not an
  // error: a fresh visitor's page shows the sign-in form with nothing failed, and one whose
  // session ended is told why.
  app.get(`${ADMIN_BASE}/session`, async (request) => {
    const id = sessionIdOf(request);
    const bearer = request.headers.authorization;
    const tokenHash = bearer === undefined && id !== undefined ? await sessions.tokenHashOf(id) : undefined;
    if (bearer === undefined && tokenHash === undefined) {
      return { name: null, ended: id === undefined ? null : 'the console session has ended; sign in again' };
    }
    try {
      const token =
        bearer !== undefined
          ? await tokens.authenticate(bearer)
          : await tokens.authenticateHash(tokenHash as string);
      if (!isOperator(token.role)) return { name: null, ended: 'the console takes an admin token' };
      return { name: token.name, ended: null };
    } catch (error) {
      if (error instanceof ServiceError) return { name: null, ended: error.message };
      throw error;
    }
  });

  app.delete(`${ADMIN_BASE}/session`, async (request, reply) => {
    const id = sessionIdOf(request);
    if (id !== undefined) {
      const tokenHash = await sessions.tokenHashOf(id);
      await sessions.close(id);
      if (tokenHash !== undefined) {
        const token = await tokens.authenticateHash(tokenHash).catch(() => undefined);
        await audit(db, { name: token?.name ?? 'unknown', id: token?.id ?? null }, 'console.sign_out', null, {
          address: request.ip,
        });
      }
    }
    reply.header('set-cookie', cookie('', 0, secure(request)));
    return { signed_out: true };
  });

  app.get('/console', async (_request, reply) => reply.redirect('/console/', 301));
  app.get('/console/*', async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    const asset = files.get(path);
    const page = asset ?? files.get('index.html');
    if (!page) {
      throw new ServiceError(
        'not_found',
        'the console is not built: run `make setup` (npm run console:build)',
      );
    }
    reply.header('content-security-policy', policy);
    reply.header('x-content-type-options', 'nosniff');
    if (asset && path.startsWith('assets/')) {
      // Vite names each built file by its content's hash.
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    } else {
      reply.header('cache-control', 'no-cache');
    }
    reply.type(asset ? (TYPES[extname(path)] ?? 'application/octet-stream') : TYPES['.html']!);
    return reply.send(page);
  });
}
