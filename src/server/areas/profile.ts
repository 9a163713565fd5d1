import { Profile, preferencesProblem } from '../../model/profile.js';
import { present, validate } from '../../model/schema.js';
import { emptyGrants, type GrantKind, type Grants, type User } from '../auth.js';
import { assertValid, badRequest, forbidden } from '../errors.js';
import { defineArea, readingOf, type Router } from '../route.js';
import { OWNER_ID } from '../auth.js';
import type { Store } from '../store.js';
import { actor, currentUser, profileEntity, profileEvent } from './profile-common.js';
import { accessRoutes } from './profile-access.js';
import { keyRoutes } from './profile-keys.js';
import { tfaRoutes } from './profile-tfa.js';
import { tokenRoutes } from './profile-tokens.js';

/** The acting user: profile, grants, per-client preferences; then apps, devices, logins, keys, two-factor, tokens. */
export default defineArea('profile', (r) => {
  profileRoutes(r);
  accessRoutes(r);
  keyRoutes(r);
  tfaRoutes(r);
  tokenRoutes(r);
});

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Preferences = Record<string, Record<string, unknown>>;

function profileRoutes(r: Router): void {
  r.get('/profile', 'none', (ctx) => present(Profile, currentUser(ctx)));

  r.put('/profile', 'account:read_write', (ctx) => {
    const user = currentUser(ctx);
    const body = ctx.body ?? {};
    if (isPlainObject(body) && body.restricted === false && user.restricted) throw forbidden('A restricted user cannot lift its own restriction');
    const { value, errors } = validate(Profile, body, readingOf(ctx, 'update', user));
    // Restricting the owner would leave the account with nobody able to grant anything back.
    if (value.restricted === true && !user.restricted && user.id === OWNER_ID) {
      errors.push({ field: 'restricted', reason: 'cannot restrict the account owner' });
    }
    assertValid(errors);
    const updated: User = { ...user, ...value };
    if (updated.restricted && !updated.grants) updated.grants = emptyGrants();
    ctx.store.put('user', user.id, updated);
    profileEvent(ctx, 'profile_update', profileEntity(user));
    return present(Profile, updated);
  });

  r.get('/profile/grants', 'none', (ctx) => {
    const user = currentUser(ctx);
    if (!user.restricted) {
      ctx.reply.code(204).send();
      return;
    }
    return grantsView(ctx.store, user.grants ?? emptyGrants());
  });

  r.get('/profile/preferences', 'account:read_only', (ctx) => {
    const prefs = (currentUser(ctx).preferences ?? {}) as Preferences;
    return prefs[actor(ctx).token.client] ?? {};
  });

  r.put('/profile/preferences', 'account:read_write', (ctx) => {
    const problem = preferencesProblem(ctx.body);
    if (problem) throw badRequest(problem);
    const body = ctx.body as Record<string, unknown>;
    const user = currentUser(ctx);
    const prefs = { ...((user.preferences ?? {}) as Preferences), [actor(ctx).token.client]: body };
    ctx.store.put('user', user.id, { ...user, preferences: prefs });
    return body;
  });
}

const GRANT_KINDS: GrantKind[] = ['vm', 'nodebalancer', 'image', 'stackscript', 'domain', 'longview', 'volume'];

/** Stored kinds behind each grant kind; this service has no domains, Longview clients or volumes. */
const STORED_KIND: Partial<Record<GrantKind, string>> = { vm: 'vm', nodebalancer: 'nodebalancer', image: 'image', stackscript: 'stackscript' };

/** Grant ids are integers in the API; private images are stored as private/<n>, scripts under string ids. */
function grantId(id: number | string): number | string {
  const m = /^(?:private\/)?(\d+)$/.exec(String(id));
  return m ? Number(m[1]) : id;
}

/** One entry per entity the user can access, labelled as it is now; grants on deleted entities drop out. */
function grantsView(store: Store, grants: Grants): Record<string, unknown> {
  const view: Record<string, unknown> = { global: { ...grants.global } };
  for (const kind of GRANT_KINDS) {
    const stored = STORED_KIND[kind];
    view[kind] = (grants[kind] ?? []).flatMap((g) => {
      const entity = stored && g.permissions ? store.get(stored, g.id) : undefined;
      return entity ? [{ id: grantId(g.id), label: String(entity.label), permissions: g.permissions }] : [];
    });
  }
  return view;
}
