import { validate, type FieldError } from '../../model/schema.js';
import { Tag, TAG_TARGETS } from '../../model/tags.js';
import { type GrantKind, requireUnrestricted, visibleTo } from '../auth.js';
import { scopeAllows } from '../../model/scopes.js';
import { assertValid, notFound } from '../errors.js';
import { emitEvent } from '../events.js';
import { defineArea, listPage, pageParams, readingOf, type Ctx } from '../route.js';
import type { Page, Store } from '../store.js';
import { registerTags, TAGGABLE_KINDS, type TagRecord } from '../tagging.js';
import { presentInstance, type InstanceRecord } from './instance-common.js';
import { presentBalancer, type BalancerRecord } from './nodebalancers-records.js';

interface Tagged extends Record<string, unknown> {
  id: number;
  tags?: string[];
}

/** Writing an object needs its own area's write scope, whatever scope the tags endpoint asked for. */
const WRITE_SCOPE: Record<string, string> = { vm: 'vms:read_write', nodebalancer: 'nodebalancers:read_write' };

const tagRef = (label: string) => ({ id: label, label, type: 'tag', url: `/v4/tags/${encodeURIComponent(label)}` });

function tagFor(ctx: Ctx): TagRecord {
  const tag = ctx.store.get<TagRecord>('tag', ctx.params.label!);
  if (!tag) throw notFound('Tag not found');
  return tag;
}

/** Each tagged object as its own area presents it; a kind without a presenter here shows its record minus internal keys. */
const PRESENTERS: Record<string, (store: Store, row: Tagged) => unknown> = {
  vm: (store, row) => presentInstance(store, row as unknown as InstanceRecord),
  nodebalancer: (_store, row) => presentBalancer(row as unknown as BalancerRecord),
};
const presentTagged = (store: Store, type: string, row: Tagged) =>
  PRESENTERS[type]?.(store, row) ?? Object.fromEntries(Object.entries(row).filter(([k]) => !k.startsWith('_')));

function setTag(store: Store, kind: string, row: Tagged, label: string, on: boolean): void {
  const tags = (row.tags ?? []).filter((t) => t !== label);
  store.put(kind, row.id, { ...row, tags: on ? [...tags, label] : tags });
}

/** The objects a create lists, checked all at once: each must exist and be writable, or nothing happens. */
function targetsOf(ctx: Ctx, body: Record<string, unknown>, errors: FieldError[]): { kind: string; row: Tagged }[] {
  const targets: { kind: string; row: Tagged }[] = [];
  for (const { field, type } of TAG_TARGETS) {
    const kind = TAGGABLE_KINDS.find((k) => k.type === type)?.kind;
    const ids = (body[field] as number[] | undefined) ?? [];
    ids.forEach((id, i) => {
      if (ids.indexOf(id) !== i) return;
      const at = `${field}.${i}`;
      const row = kind ? ctx.store.get<Tagged>(kind, id) : undefined;
      if (!kind || !row || !visibleTo(ctx.auth, kind as GrantKind, id)) {
        errors.push({ field: at, reason: `${type} ${id} not found` });
      } else if (!scopeAllows(ctx.auth!.token.scopes, WRITE_SCOPE[type]!)) {
        errors.push({ field: at, reason: `No write access to ${type} ${id}: the token lacks ${WRITE_SCOPE[type]}` });
      } else {
        targets.push({ kind, row });
      }
    });
  }
  return targets;
}

function createTag(ctx: Ctx): unknown {
  const auth = ctx.auth!;
  requireUnrestricted(auth, 'add or change tags');
  const { value: body, errors } = validate(Tag, ctx.body ?? {}, readingOf(ctx, 'create'));
  const label = body.label as string | undefined;
  if (label !== undefined && ctx.store.get('tag', label)) errors.push({ field: 'label', reason: `A tag labeled ${label} already exists` });
  const targets = targetsOf(ctx, body, errors);
  assertValid(errors);
  registerTags(ctx.store, [label!]);
  for (const { kind, row } of targets) setTag(ctx.store, kind, row, label!, true);
  emitEvent(ctx.store, { action: 'tag_create', entity: tagRef(label!), username: auth.user.username });
  return { label };
}

/** Every object carrying the tag that the caller may see, as {type, data}, one page of them. */
function taggedObjects(ctx: Ctx): Page<unknown> {
  const tag = tagFor(ctx);
  const { page, pageSize } = pageParams(ctx);
  const all = TAGGABLE_KINDS.flatMap(({ kind, type }) =>
    ctx.store
      .all<Tagged>(kind)
      .filter((row) => row.tags?.includes(tag.label) && visibleTo(ctx.auth, kind as GrantKind, row.id))
      .map((row) => ({ type, data: presentTagged(ctx.store, type, row) })),
  );
  const pages = Math.max(1, Math.ceil(all.length / pageSize));
  const current = Math.min(page, pages);
  return { data: all.slice((current - 1) * pageSize, current * pageSize), page: current, pages, results: all.length };
}

function deleteTag(ctx: Ctx): unknown {
  requireUnrestricted(ctx.auth, 'add or change tags');
  const tag = tagFor(ctx);
  for (const { kind } of TAGGABLE_KINDS) {
    for (const row of ctx.store.all<Tagged>(kind)) if (row.tags?.includes(tag.label)) setTag(ctx.store, kind, row, tag.label, false);
  }
  ctx.store.delete('tag', tag.label);
  emitEvent(ctx.store, { action: 'tag_delete', entity: tagRef(tag.label), username: ctx.auth!.user.username });
  return {};
}

export default defineArea('tags', (r) => {
  r.get('/tags', 'account:read_only', (ctx) => listPage<TagRecord>(ctx, 'tag', { present: (row) => ({ label: row.label }) }));
  r.post('/tags', 'account:read_write', createTag);
  r.get('/tags/{label}', 'account:read_only', taggedObjects);
  r.delete('/tags/{label}', 'account:read_write', deleteTag);
});
