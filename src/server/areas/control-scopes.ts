import type { FastifyInstance } from 'fastify';
import { badRequest } from '../errors.js';
import { mountControlRoutes } from './control.js';
import { sinceOf } from './control-journal.js';

/**
 * The least privilege the calling account's requests needed, under
 * /__control/scopes: every scope they needed, the narrowest scope string
 * covering them, the operations behind each, and the refusals.
 */

const TOKEN_PREFIX = /^[\x21-\x7e]{6,64}$/;

export function mountControlScopes(app: FastifyInstance): void {
  mountControlRoutes(app, [
    ['GET', '/scopes', (ctx) => {
      const token = ctx.query.token;
      if (token !== undefined && (typeof token !== 'string' || !TOKEN_PREFIX.test(token))) {
        throw badRequest('token must be the first 6 to 64 characters of a token, as the journal shows them', 'token');
      }
      return ctx.account.scopes.report({ since: sinceOf(ctx.query.since), token: token as string | undefined });
    }],
  ]);
}
