import {
  Image,
  PRIVATE_IMAGE_LIMIT,
  PRIVATE_IMAGE_PREFIX,
  PUBLIC_IMAGE_PREFIX,
  imageLabelFromDisk,
  type ImageRecord,
} from '../../model/images.js';
import { filterableFields, present, validate, type FieldError } from '../../model/schema.js';
import { type Auth, type GrantKind, type User, grantFilter, requireEntity, requireGlobal, visibleTo } from '../auth.js';
import { scopeAllows } from '../../model/scopes.js';
import { assertValid, forbidden, notFound } from '../errors.js';
import { emitEvent, finishEvent, type EntityRef } from '../events.js';
import { filterFields, type SqlFilter } from '../filter.js';
import { defineArea, listPage, bodyFor, readingOf, type Ctx, type Handler, type Router } from '../route.js';
import { onJob } from '../sim.js';
import type { Store } from '../store.js';
import { isoSeconds } from '../../model/time.js';
import type { DiskRecord, InstanceRecord } from './instance-common.js';

/** Private images list after the public ones. */
const PRIVATE_ORD_BASE = 1_000_000;

const CAPTURED = 'image.captured';

onJob(CAPTURED, (store, payload) => finishEvent(store, payload.event as number));

const presentImage = (row: Record<string, unknown>) => present(Image, row);

export const imageRef = (image: ImageRecord): EntityRef => ({ id: image.id, label: image.label, type: 'image', url: `/v4/images/${image.id}` });

/** Whether the caller may see an image: public ones always, private ones per the restricted user's grants. */
export function imageVisible(auth: Auth | null, image: ImageRecord): boolean {
  return image.is_public || (auth !== null && visibleTo(auth, 'image', image.id));
}

/** A restricted user gets read_write on what they create, as upstream does. */
export function grantCreator(store: Store, auth: Auth, kind: GrantKind, id: string | number): void {
  if (!auth.user.restricted || !auth.user.grants) return;
  const grants = auth.user.grants;
  store.put<User>('user', auth.user.id, { ...auth.user, grants: { ...grants, [kind]: [...grants[kind], { id, permissions: 'read_write' }] } });
}

/** Grants on an entity that no longer exists are dropped from every user. */
export function dropGrants(store: Store, kind: GrantKind, id: string | number): void {
  for (const user of store.all<User>('user')) {
    if (!user.grants?.[kind].some((g) => String(g.id) === String(id))) continue;
    store.put<User>('user', user.id, { ...user, grants: { ...user.grants, [kind]: user.grants[kind].filter((g) => String(g.id) !== String(id)) } });
  }
}

/** Stores a new private image captured from a disk; shared by POST /images and the demo seed. */
export function insertPrivateImage(
  store: Store,
  fields: { disk: DiskRecord; label: string; description: string; username: string; created: string },
): ImageRecord {
  const n = store.nextId('private_image');
  const id = `${PRIVATE_IMAGE_PREFIX}${n}`;
  const record: ImageRecord = {
    id,
    label: fields.label,
    description: fields.description,
    created: fields.created,
    updated: fields.created,
    created_by: fields.username,
    deprecated: false,
    is_public: false,
    size: fields.disk.size,
    type: 'manual',
    expiry: null,
    eol: null,
    vendor: null,
  };
  return store.insert('image', id, record, { ord: PRIVATE_ORD_BASE + n });
}

const privateImageCount = (store: Store) => store.all<ImageRecord>('image').filter((i) => !i.is_public).length;

/** Without a token: public images; with one: public plus the private images the caller may see. */
function listRestriction(auth: Auth | null): SqlFilter | undefined {
  const isPublic = "json_extract(data, '$.is_public') = 1";
  if (!auth) return { where: isPublic, params: [] };
  const granted = grantFilter(auth, 'image');
  return granted && { where: `${isPublic} OR (${granted.where})`, params: granted.params };
}

/**
 * The image a path names, or 404. A private image also needs a token that may
 * read images: the single-image view has no scope of its own.
 */
function imageFor(ctx: Ctx, id: string): ImageRecord {
  const image = ctx.store.get<ImageRecord>('image', id);
  if (!image) throw notFound('Image not found');
  if (image.is_public) return image;
  if (!ctx.auth || !scopeAllows(ctx.auth.token.scopes, 'images:read_only') || !imageVisible(ctx.auth, image)) throw notFound('Image not found');
  return image;
}

/** PUT and DELETE act on private images only, with write access to them. */
function writableImage(ctx: Ctx, id: string): ImageRecord {
  const image = imageFor(ctx, id);
  if (image.is_public) throw forbidden('Public images cannot be changed or deleted');
  requireEntity(ctx.auth, 'image', image.id, 'read_write', 'Image not found');
  return image;
}

/** The disk an image is captured from: it must exist, be the caller's to write, and not be swap. */
function sourceDisk(ctx: Ctx, diskId: number, errors: FieldError[]): { disk: DiskRecord; vmId: number } | undefined {
  const disk = ctx.store.get<DiskRecord>('disk', diskId);
  const vmId = Number(ctx.store.parentOf('disk', diskId));
  if (!disk || !visibleTo(ctx.auth, 'vm', vmId)) {
    errors.push({ field: 'disk_id', reason: `Disk ${diskId} not found` });
    return undefined;
  }
  requireEntity(ctx.auth, 'vm', vmId, 'read_write');
  if (disk.filesystem === 'swap') errors.push({ field: 'disk_id', reason: 'An image cannot be made from a swap disk' });
  else if (disk.status !== 'ready') errors.push({ field: 'disk_id', reason: `Disk ${diskId} is ${disk.status}; wait until it is ready` });
  return { disk, vmId };
}

function createImage(ctx: Ctx): unknown {
  const auth = ctx.auth!;
  requireGlobal(auth, 'add_images');
  const { value: body, errors } = validate(Image, ctx.body ?? {}, readingOf(ctx, 'create'));
  if (privateImageCount(ctx.store) >= PRIVATE_IMAGE_LIMIT) {
    errors.push({ reason: `The account already has ${PRIVATE_IMAGE_LIMIT} private images, the most it may hold; delete one first` });
  }
  const source = typeof body.disk_id === 'number' ? sourceDisk(ctx, body.disk_id, errors) : undefined;
  assertValid(errors);
  const { disk, vmId } = source!;
  const image = insertPrivateImage(ctx.store, {
    disk,
    label: (body.label as string | undefined) ?? imageLabelFromDisk(disk.label, disk.id),
    description: (body.description as string | undefined) ?? '',
    username: auth.user.username,
    created: isoSeconds(ctx.store.clock.now()),
  });
  grantCreator(ctx.store, auth, 'image', image.id);
  const vm = ctx.store.get<InstanceRecord>('vm', vmId);
  const event = emitEvent(ctx.store, {
    action: 'disk_imagize',
    status: 'started',
    username: auth.user.username,
    entity: { id: vmId, label: vm?.label ?? String(vmId), type: 'vm', url: `/v4/vm/instances/${vmId}` },
    secondary_entity: imageRef(image),
  });
  // Capturing takes longer for bigger disks: about a minute per 6 GB.
  ctx.sim.schedule(CAPTURED, { event: event.id }, Math.min(600, Math.max(20, Math.round(disk.size / 100))));
  return presentImage(image);
}

function updateImage(ctx: Ctx, id: string): unknown {
  const image = writableImage(ctx, id);
  const body = bodyFor(ctx, Image, 'update', image);
  const updated = ctx.store.put<ImageRecord>('image', image.id, { ...image, ...body, updated: isoSeconds(ctx.store.clock.now()) });
  emitEvent(ctx.store, { action: 'image_update', entity: imageRef(updated), username: ctx.auth!.user.username });
  return presentImage(updated);
}

function deleteImage(ctx: Ctx, id: string): unknown {
  const image = writableImage(ctx, id);
  ctx.store.delete('image', image.id);
  dropGrants(ctx.store, 'image', image.id);
  emitEvent(ctx.store, { action: 'image_delete', entity: imageRef(image), username: ctx.auth!.user.username });
  return {};
}

/**
 * An image ID holds a slash, so each single-image endpoint answers both the
 * plain form (/images/private/12) and the encoded one (/images/private%2F12).
 */
const IMAGE_PATHS: [string, (param: string) => string][] = [
  ['/images/{imageId}', (param) => param],
  ['/images/private/{imageId}', (param) => PRIVATE_IMAGE_PREFIX + param],
  ['/images/vm/{imageId}', (param) => PUBLIC_IMAGE_PREFIX + param],
];

function onImage(r: Router, method: 'get' | 'put' | 'delete', scope: string, handler: (ctx: Ctx, id: string) => unknown): void {
  for (const [path, toId] of IMAGE_PATHS) {
    const h: Handler = (ctx) => handler(ctx, toId(ctx.params.imageId!));
    r[method](path, scope, h);
  }
}

export default defineArea('images', (r) => {
  r.get(
    '/images',
    'optional',
    (ctx) => listPage(ctx, 'image', { filterable: filterFields(filterableFields(Image)), restrict: listRestriction(ctx.auth), present: presentImage }),
    'images:read_only',
  );
  r.post('/images', 'images:read_write', createImage);
  onImage(r, 'get', 'public', (ctx, id) => presentImage(imageFor(ctx, id)));
  onImage(r, 'put', 'images:read_write', updateImage);
  onImage(r, 'delete', 'images:read_write', deleteImage);
});
