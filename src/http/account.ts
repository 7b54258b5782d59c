/**
 * What a client token may read of itself: `GET /v1/account` (balance, limits, spent today) and
 * `GET /v1/account/usage` (its own usage rows, as the admin API groups them), and each family's
 * `GET /{family}/models` in OpenAI's list shape, so that SDKs' model listing works, and
 * `GET /v1/pricing` (the price table); and what it
 * may do to itself: `POST /v1/account/redeem` a redemption code onto its balance. An admin token
 * is refused here as on every operation.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OPERATIONS } from '../contract/table.js';
import { checkSchema } from '../contract/validate.js';
import { badRequest, ServiceError } from '../errors.js';
import type { Token } from '../accounts/tokens.js';
import type { Admin } from '../admin/index.js';
import type { ChannelBoard } from '../providers/channel-board.js';
import type { Tokens } from '../accounts/tokens.js';
import { AccountUsageQuery, RedeemBody } from '../admin/schemas.js';
import type { Db } from '../store/database.js';
import type { Config } from '../config/index.js';
import { redeem } from '../accounts/redemption-codes.js';
import { RedeemFailures } from '../accounts/redeem-failures.js';
import type { Group } from '../admin/usage-report.js';
import { timeOf } from '../admin/values.js';
import { modelList } from './models.js';

/** What a client's own account routes use of the services. */
export interface AccountServices {
  admin: Admin;
  board: ChannelBoard;
  config: Config;
  db: Db;
  tokens: Tokens;
}

async function clientOf(services: AccountServices, request: FastifyRequest): Promise<Token> {
  const token = await services.tokens.authenticate(request.headers.authorization);
  if (token.role !== 'client')
    throw new ServiceError('forbidden', 'an admin token calls /admin/api/v1 only, not operations');
  return token;
}

/** The first segment of each operation's path: `/serp`, `/chatmodel`, `/tune`, … */
export const PREFIXES = [...new Set(OPERATIONS.map((o) => `/${o.path.split('/')[1]}`))];

export function registerAccount(app: FastifyInstance, services: AccountServices): void {
  app.get('/v1/account', async (request) => services.admin.account(await clientOf(services, request)));

  app.get('/v1/account/usage', async (request) => {
    const token = await clientOf(services, request);
    const query = (request.query ?? {}) as Record<string, string | undefined>;
    const violations = checkSchema(AccountUsageQuery, query);
    if (violations.length > 0) throw badRequest(violations);
    const from = timeOf('from', query.from);
    const to = timeOf('to', query.to);
    const groupBy = [...new Set((query.group_by ?? 'operation').split(','))] as Group[];
    const rows = await services.admin.accountUsage(token, {
      groupBy,
      ...(from !== undefined ? { from } : {}),
      ...(to !== undefined ? { to } : {}),
    });
    return { rows: rows.map(({ token: _own, ...row }) => row) };
  });

  // What each operation costs, as the operator priced it: the same table the admin settings show.
  app.get('/v1/pricing', async (request) => {
    await clientOf(services, request);
    return { prices: services.config.prices };
  });

  const failures = new RedeemFailures();
  app.post('/v1/account/redeem', async (request) => {
    const token = await clientOf(services, request);
    failures.check(token.id);
    const violations = checkSchema(RedeemBody, request.body ?? {});
    if (violations.length > 0) throw badRequest(violations);
    try {
      return await redeem(services.db, token, (request.body as { code: string }).code, request.id);
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'bad_request') failures.failed(token.id);
      throw error;
    }
  });

  for (const prefix of PREFIXES) {
    app.get(`${prefix}/models`, async (request) => {
      await clientOf(services, request);
      return modelList(prefix, services.board);
    });
  }
}
