import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineResource } from '../../model/schema.js';
import { ACCOUNTS_MAX, type Account, type Accounts } from '../accounts.js';
import { badRequest, forbidden, notFound } from '../errors.js';
import { BASE_ROOT, BETA_ROOT } from '../roots.js';
import { bodyFor, type Ctx } from '../route.js';
import type { SeedKind } from '../accounts.js';
import type { Speed } from '../sim.js';
import { mountControlRoutes, type ControlRoute } from './control.js';

/**
 * Accounts under /__control/accounts: more accounts in the same service,
 * each isolated from the others (see accounts.ts), made and removed by the
 * primary account's control token only.
 */

const AccountCreate = defineResource('account', {
  seed: { kind: 'enum', title: 'Seed', values: ['demo', 'empty'], required: true },
  speed: { kind: 'enum', title: 'Speed', values: ['instant', 'realistic'] },
});

/** The roots a client of the account calls: the service's own, as this request reached it; its token picks the account. */
export function accountRoots(req: FastifyRequest) {
  const origin = `${req.protocol}://${req.headers.host ?? req.host}`;
  return { base_url: origin + BASE_ROOT, beta_url: origin + BETA_ROOT };
}

/** Refuses a new account (made or imported) when there are as many as may be. */
export function checkRoom(accounts: Accounts): void {
  if (accounts.size - 1 >= ACCOUNTS_MAX) throw badRequest(`There are ${ACCOUNTS_MAX} accounts besides the primary already; DELETE /__control/accounts/{id} one first`);
}

function accountOf(accounts: Accounts, ctx: Ctx): Account {
  const account = accounts.get(Number(ctx.params.id));
  if (!account) throw notFound('Account not found');
  return account;
}

function routes(accounts: Accounts): ControlRoute[] {
  return [
    ['POST', '/accounts', (ctx) => {
      const body = bodyFor(ctx, AccountCreate, 'create');
      checkRoom(accounts);
      const { account, token, restrictedToken } = accounts.create(body.seed as SeedKind, body.speed as Speed | undefined);
      return { ...account.describe(), token, restricted_token: restrictedToken, ...accountRoots(ctx.req) };
    }],
    ['GET', '/accounts', (ctx) => {
      const data = accounts.list().map((a) => ({ ...a.describe(), ...accountRoots(ctx.req) }));
      return { data, page: 1, pages: 1, results: data.length };
    }],
    ['GET', '/accounts/:id', (ctx) => ({ ...accountOf(accounts, ctx).describe(), ...accountRoots(ctx.req) })],
    ['DELETE', '/accounts/:id', (ctx) => {
      const account = accountOf(accounts, ctx);
      if (account.primary) throw badRequest('The primary account (the one serve started, on its data file) cannot be removed');
      accounts.remove(account);
    }],
  ];
}

export function mountControlAccounts(app: FastifyInstance, accounts: Accounts): void {
  mountControlRoutes(app, routes(accounts), (ctx) => {
    if (!ctx.account.primary) throw forbidden("Accounts are made and removed with the primary account's control token only");
  });
}
