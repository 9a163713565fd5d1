import { createHash } from 'node:crypto';
import type { ImageRecord } from '../../model/images.js';
import { filterableFields, present, validate, type FieldError } from '../../model/schema.js';
import { StackScript, parseUdfs, type StackScriptRecord } from '../../model/stackscripts.js';
import { type Auth, type User, entityLevel, grantFilter, requireGlobal } from '../auth.js';
import { assertValid, badRequest, forbidden, notFound } from '../errors.js';
import { emitEvent, type EntityRef } from '../events.js';
import { filterFields, type FilterFields, type SqlFilter } from '../filter.js';
import { defineArea, listPage, readingOf, type Ctx } from '../route.js';
import type { Store } from '../store.js';
import { isoSeconds } from '../../model/time.js';
import { dropGrants, grantCreator, imageVisible } from './images.js';

/** Script IDs continue the reference scripts' sequence (10001, …). */
const FIRST_ID = 10001;

/** user_defined_fields are derived from the script each time, so they always match it. */
const presentScript = (row: StackScriptRecord) => present(StackScript, { ...row, user_defined_fields: parseUdfs(row.script) });

const scriptRef = (s: StackScriptRecord): EntityRef => ({ id: s.id, label: s.label, type: 'stackscript', url: `/v4/vm/stackscripts/${s.id}` });

const gravatarId = (email: string) => createHash('md5').update(email.trim().toLowerCase()).digest('hex');

/**
 * What a caller may do with a script: the provider's public scripts are read
 * only; the account's are read_write for unrestricted users and their author,
 * and per grant for other restricted users.
 */
function scriptLevel(auth: Auth | null, script: StackScriptRecord): 'read_only' | 'read_write' | null {
  if (script.owner_id === null) return 'read_only';
  if (auth && (script.owner_id === auth.user.id || !auth.user.restricted)) return 'read_write';
  const granted = auth ? entityLevel(auth, 'stackscript', script.id) : null;
  return granted ?? (script.is_public ? 'read_only' : null);
}

/** Without a token: public scripts; with one: also the account's scripts the caller may see. */
function listRestriction(auth: Auth | null): SqlFilter | undefined {
  const isPublic = "json_extract(data, '$.is_public') = 1";
  if (!auth) return { where: isPublic, params: [] };
  const granted = grantFilter(auth, 'stackscript');
  if (!granted) return undefined;
  return { where: `${isPublic} OR json_extract(data, '$.owner_id') = ? OR (${granted.where})`, params: [auth.user.id, ...granted.params] };
}

const FILTERABLE = filterFields(filterableFields(StackScript));

/**
 * Later releases filter the list on `mine` (the caller's own scripts); it has
 * one meaning in 4.83.1 terms, so only --strict refuses it as the seed's lists do.
 */
function scriptFilters(ctx: Ctx): FilterFields {
  if (ctx.services.strict) return FILTERABLE;
  const ownerId = ctx.auth?.user.id;
  const mine = (on: boolean): SqlFilter =>
    ownerId === undefined ? { where: on ? '0' : '1', params: [] } : { where: `json_extract(data, '$.owner_id') ${on ? 'IS' : 'IS NOT'} ?`, params: [ownerId] };
  return { ...FILTERABLE, mine: { path: '$.owner_id', flag: mine } };
}

function scriptFor(ctx: Ctx): StackScriptRecord {
  const script = ctx.store.get<StackScriptRecord>('stackscript', ctx.params.stackscriptId!);
  if (!script || scriptLevel(ctx.auth, script) === null) throw notFound('StackScript not found');
  return script;
}

function writableScript(ctx: Ctx): StackScriptRecord {
  const script = scriptFor(ctx);
  if (script.owner_id === null) throw forbidden('Public StackScripts of the provider cannot be changed');
  if (scriptLevel(ctx.auth, script) !== 'read_write') throw forbidden('You have read-only access to this StackScript');
  return script;
}

/** Each listed image must exist and be visible to the caller. */
function imageErrors(store: Store, auth: Auth, images: unknown): FieldError[] {
  if (!Array.isArray(images)) return [];
  return images.flatMap((id, i) => {
    const image = typeof id === 'string' ? store.get<ImageRecord>('image', id) : undefined;
    return image && imageVisible(auth, image) ? [] : [{ field: `images.${i}`, reason: `Image ${String(id)} not found` }];
  });
}

/** Validates a create or update body, including the image references, reporting every problem at once. */
function scriptBody(ctx: Ctx, mode: 'create' | 'update', current?: StackScriptRecord): Record<string, unknown> {
  const { value, errors } = validate(StackScript, ctx.body ?? {}, readingOf(ctx, mode, current));
  errors.push(...imageErrors(ctx.store, ctx.auth!, value.images));
  assertValid(errors);
  return value;
}

/** Stores a new script of a user; shared by POST and the demo seed. */
export function insertStackscript(
  store: Store,
  owner: User,
  fields: { label: string; images: string[]; script: string; description?: string; is_public?: boolean; rev_note?: string },
  created: string,
): StackScriptRecord {
  const id = String(store.nextId('stackscript', FIRST_ID));
  const record: StackScriptRecord = {
    id,
    username: owner.username,
    user_gravatar_id: gravatarId(typeof owner.email === 'string' ? owner.email : ''),
    label: fields.label,
    description: fields.description ?? '',
    images: fields.images,
    deployments_total: 0,
    deployments_active: 0,
    is_public: fields.is_public ?? false,
    created,
    updated: created,
    rev_note: fields.rev_note ?? '',
    script: fields.script,
    owner_id: owner.id,
  };
  return store.insert('stackscript', id, record, { ord: Number(id) });
}

function createScript(ctx: Ctx): unknown {
  const auth = ctx.auth!;
  requireGlobal(auth, 'add_stackscripts');
  const body = scriptBody(ctx, 'create');
  const script = insertStackscript(ctx.store, auth.user, body as Parameters<typeof insertStackscript>[2], isoSeconds(ctx.store.clock.now()));
  grantCreator(ctx.store, auth, 'stackscript', script.id);
  emitEvent(ctx.store, { action: 'stackscript_create', entity: scriptRef(script), username: auth.user.username });
  return presentScript(script);
}

/** The events an update emits: publicize when made public, revise when the script changes, update for anything else. */
function updateActions(before: StackScriptRecord, body: Record<string, unknown>): string[] {
  const changed = Object.keys(body).filter((k) => JSON.stringify(body[k]) !== JSON.stringify(before[k]));
  const actions: string[] = [];
  if (changed.includes('is_public')) actions.push('stackscript_publicize');
  if (changed.includes('script')) actions.push('stackscript_revise');
  if (actions.length === 0 || changed.some((k) => k !== 'is_public' && k !== 'script')) actions.push('stackscript_update');
  return actions;
}

function updateScript(ctx: Ctx): unknown {
  const before = writableScript(ctx);
  const body = scriptBody(ctx, 'update', before);
  const after = ctx.store.put<StackScriptRecord>('stackscript', before.id, { ...before, ...body, updated: isoSeconds(ctx.store.clock.now()) });
  for (const action of updateActions(before, body)) {
    emitEvent(ctx.store, { action, entity: scriptRef(after), username: ctx.auth!.user.username });
  }
  return presentScript(after);
}

function deleteScript(ctx: Ctx): unknown {
  const script = writableScript(ctx);
  if (script.is_public) throw badRequest('A public StackScript cannot be deleted');
  ctx.store.delete('stackscript', script.id);
  dropGrants(ctx.store, 'stackscript', script.id);
  emitEvent(ctx.store, { action: 'stackscript_delete', entity: scriptRef(script), username: ctx.auth!.user.username });
  return {};
}

export default defineArea('stackscripts', (r) => {
  r.get(
    '/vm/stackscripts',
    'optional',
    (ctx) =>
      listPage<StackScriptRecord>(ctx, 'stackscript', {
        filterable: scriptFilters(ctx),
        restrict: listRestriction(ctx.auth),
        present: presentScript,
      }),
    'stackscripts:read_only',
  );
  r.post('/vm/stackscripts', 'stackscripts:read_write', createScript);
  r.get('/vm/stackscripts/{stackscriptId}', 'stackscripts:read_only', (ctx) => presentScript(scriptFor(ctx)));
  r.put('/vm/stackscripts/{stackscriptId}', 'stackscripts:read_write', updateScript);
  r.delete('/vm/stackscripts/{stackscriptId}', 'stackscripts:read_write', deleteScript);
});
