import { Token } from '../../model/tokens.js';
import { filterableFields, present, validate } from '../../model/schema.js';
import { issueToken, newTokenValue, type TokenRecord } from '../auth.js';
import { scopesWithin } from '../../model/scopes.js';
import { assertValid, notFound } from '../errors.js';
import { filterFields, type SqlFilter } from '../filter.js';
import { bodyFor, listPage, readingOf, type Ctx, type Router } from '../route.js';
import { isoSeconds, parseApiTime } from '../../model/time.js';
import { actor, ownParent, ownRow, profileEvent } from './profile-common.js';

/** Personal access tokens share one OAuth client; app tokens belong to their app and are not listed here. */
export const PERSONAL_CLIENT = 'personal';

const personalOnly: SqlFilter = { where: "json_extract(data, '$.client') = ?", params: [PERSONAL_CLIENT] };

const tokenEntity = (t: TokenRecord) => ({ id: t.id, label: t.label, type: 'token', url: `/v4/profile/tokens/${t.id}` });

function ownToken(ctx: Ctx): TokenRecord {
  const token = ownRow<TokenRecord>(ctx, 'token', ctx.params.tokenId!, 'Token not found');
  if (token.client !== PERSONAL_CLIENT) throw notFound('Token not found');
  return token;
}

/**
 * Personal access tokens. Only a hash of the value is stored, so the full value
 * exists once, in the creation response; revoking deletes the record and the
 * token is refused (401) from the next request on.
 */
export function tokenRoutes(r: Router): void {
  const filterable = filterFields(filterableFields(Token));

  r.get('/profile/tokens', 'account:read_only', (ctx) =>
    listPage(ctx, 'token', { parent: ownParent(ctx), filterable, restrict: personalOnly, present: (row) => present(Token, row) }),
  );

  r.post('/profile/tokens', 'account:read_write', (ctx) => {
    const { value, errors } = validate(Token, ctx.body ?? {}, readingOf(ctx, 'create'));
    const acting = actor(ctx).token.scopes;
    const scopes = typeof value.scopes === 'string' ? value.scopes.trim() : acting;
    if (!scopesWithin(scopes, acting)) errors.push({ field: 'scopes', reason: `scopes exceed those of the token making the request (${acting})` });
    assertValid(errors);
    const secret = newTokenValue();
    const expiry = typeof value.expiry === 'string' ? isoSeconds(parseApiTime(value.expiry)) : null;
    const issued = issueToken(ctx.store, secret, { user_id: actor(ctx).user.id, label: '', scopes, expiry, client: PERSONAL_CLIENT });
    const record = ctx.store.put('token', issued.id, { ...issued, label: (value.label as string | undefined) ?? `token-${issued.id}` });
    profileEvent(ctx, 'token_create', tokenEntity(record));
    return { ...present(Token, record), token: secret };
  });

  r.get('/profile/tokens/{tokenId}', 'account:read_only', (ctx) => present(Token, ownToken(ctx)));

  r.put('/profile/tokens/{tokenId}', 'account:read_write', (ctx) => {
    const token = ownToken(ctx);
    const updated = { ...token, ...bodyFor(ctx, Token, 'update', token) };
    ctx.store.put('token', token.id, updated);
    profileEvent(ctx, 'token_update', tokenEntity(updated));
    return present(Token, updated);
  });

  // A token may revoke itself: this request was already authorized, the next one is not.
  r.delete('/profile/tokens/{tokenId}', 'account:read_write', (ctx) => {
    const token = ownToken(ctx);
    ctx.store.delete('token', token.id);
    profileEvent(ctx, 'token_delete', tokenEntity(token));
  });
}
