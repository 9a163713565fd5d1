import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import type { ListSpec, ScreenCtx } from '../../app/screen.js';
import {
  BUCKETS_PATH,
  OBJ_RO,
  OBJ_RW,
  deleteThroughUrl,
  downloadToFile,
  getObjectAcl,
  presignUrl,
  putObjectAcl,
  uploadFile,
  type ObjectAcl,
  type ObjectEntry,
} from '../../api/object-storage.js';
import { ObjectAclUpdate, ObjectUrlRequest } from '../../model/object-storage.js';
import { flawOf } from '../../model/response.js';
import { defineResource } from '../../model/schema.js';
import { dateTimeText } from '../../components/dates.js';
import { guessContentType } from './content-type.js';
import { bytesText, relativeName } from './format.js';
import { presignForm, type BucketRef } from './presign.js';

/** A listing entry, or the "… more" line at the end of a listing the server has more of. */
export type ObjectRow = ObjectEntry & { more?: boolean };

export const objectRowKey = (r: ObjectRow) => (r.more ? '\u0000more' : (flawOf(r)?.key ?? r.name));

/** A prefix entry stands for the names under it (the listing's delimiter is /). */
export const isPrefix = (r: ObjectEntry) => r.size === null;

/** Data moves through pre-signed URLs; a short lifetime is plenty for one request. */
const TRANSFER_URL_SECONDS = 360;

/** A path as typed, ~ for the home folder, made absolute. */
const localPath = (typed: string) => resolve(typed.replace(/^~(?=$|\/)/, homedir()));

function readableFile(path: string): string | null {
  try {
    return statSync(localPath(path)).isFile() ? null : 'path must name a file';
  } catch {
    return 'no such file';
  }
}

function writableTarget(path: string): string | null {
  const full = localPath(path);
  if (!existsSync(dirname(full))) return `folder ${dirname(full)} does not exist`;
  return existsSync(full) && statSync(full).isDirectory() ? 'path is a folder; name a file' : null;
}

/** Upload and download forms: local paths, checked as the user types; the object fields are the model's. */
const UploadRequest = defineResource('object_upload', {
  path: { kind: 'string', required: true, minLength: 1, check: readableFile, title: 'Local file', help: 'Path of the file to upload; ~ is your home folder' },
  name: { ...ObjectUrlRequest.fields.name!, required: false, help: 'Default: this folder + the file name; an existing object is replaced' },
  content_type: { ...ObjectUrlRequest.fields.content_type!, help: 'Default: guessed from the file name' },
});

const DownloadRequest = defineResource('object_download', {
  path: { kind: 'string', required: true, minLength: 1, check: writableTarget, title: 'Save as', help: 'Local file path; ~ is your home folder' },
});

/** "owner FULL_CONTROL, AllUsers READ" from the S3 ACL document. */
export function grantsText(xml: string): string {
  const grants = [...xml.matchAll(/<Grant>(.*?)<\/Grant>/g)].map((m) => {
    const who = /<URI>[^<]*\/([^/<]+)<\/URI>/.exec(m[1]!)?.[1] ?? 'owner';
    return `${who} ${/<Permission>([^<]+)<\/Permission>/.exec(m[1]!)?.[1] ?? '?'}`;
  });
  return grants.join(', ');
}

const signed = async (ctx: ScreenCtx, where: BucketRef, name: string, method: 'GET' | 'PUT' | 'DELETE', contentType?: string) =>
  (await presignUrl(ctx.client, where.cluster, where.bucket, { name, method, expires_in: TRANSFER_URL_SECONDS, content_type: contentType })).url;

/**
 * What the object browser offers on its rows: the generic overlays (detail,
 * actions, forms, confirms) render it. `loaded` is the listing so far, to
 * warn before an upload replaces an object.
 */
export function objectSpec(where: BucketRef, prefix: string, loaded: () => readonly ObjectEntry[]): ListSpec<ObjectRow> {
  return {
    path: `${BUCKETS_PATH}/${encodeURIComponent(where.cluster)}/${encodeURIComponent(where.bucket)}`,
    rowKey: objectRowKey,
    label: (r) => r.name,
    writeScope: OBJ_RW,
    columns: [
      { key: 'name', title: 'Name', flex: 2, format: (r) => (r.more ? r.name : relativeName(r.name, prefix)), color: (r) => (r.more ? 'gray' : isPrefix(r) ? 'cyan' : undefined) },
      { key: 'size', title: 'Size', width: 9, align: 'right', format: (r) => (r.more ? '' : isPrefix(r) ? 'folder' : bytesText(r.size)) },
      { key: 'last_modified', title: 'Last modified', width: 16, format: (r) => dateTimeText(r.last_modified) },
      { key: 'etag', title: 'ETag', flex: 1 },
    ],
    detail: {
      sections: [
        { title: 'Object', fields: ['name', 'size_text', 'last_modified', 'etag', 'owner'] },
        { title: 'Access', fields: ['acl', 'grants'] },
      ],
      fetch: async (r, ctx) => {
        if (isPrefix(r)) return { name: r.name, size_text: 'a folder: Enter lists what is in it' };
        const acl = await getObjectAcl(ctx.client, where.cluster, where.bucket, r.name);
        return { ...r, size_text: `${bytesText(r.size)} (${r.size} bytes)`, last_modified: dateTimeText(r.last_modified), acl: acl.acl, grants: grantsText(acl.acl_xml) };
      },
    },
    actions: [
      {
        id: 'flat',
        label: 'List everything under it, without folders',
        key: 'o',
        scope: OBJ_RO,
        changes: false,
        when: isPrefix,
        run: async (r, ctx) => {
          ctx.push('object-browser', { ...where, prefix: r.name, flat: '1' }, `${relativeName(r.name, prefix)} (all)`);
          return `Every object under ${r.name}`;
        },
      },
      {
        id: 'acl-view',
        label: 'View ACL',
        key: 'v',
        scope: OBJ_RO,
        changes: false,
        when: (r) => !isPrefix(r),
        run: async (r, ctx) => {
          const { acl, acl_xml } = await getObjectAcl(ctx.client, where.cluster, where.bucket, r.name);
          return `${relativeName(r.name, prefix)}: ACL ${acl} (${grantsText(acl_xml)})`;
        },
      },
      {
        id: 'acl-edit',
        label: 'Edit ACL',
        key: 'l',
        when: (r) => !isPrefix(r),
        form: {
          title: 'Object ACL',
          schema: ObjectAclUpdate,
          fields: ['name', 'acl'],
          overrides: { name: { hidden: true }, acl: { help: 'View ACL (v in the actions) shows the current one' } },
          initial: (r) => ({ name: r!.name }),
          submit: (body, ctx) => putObjectAcl(ctx.client, where.cluster, where.bucket, body.name as string, body.acl as ObjectAcl),
          done: (r, row) => `${relativeName(row!.name, prefix)}: ACL now ${(r as { acl: string }).acl}`,
        },
      },
      {
        id: 'url',
        label: 'Pre-signed URL…',
        key: 'p',
        when: (r) => !isPrefix(r),
        form: presignForm<ObjectRow>(
          () => where,
          (r) => r.name,
        ),
      },
      {
        id: 'download',
        label: 'Download to file…',
        key: 'w',
        when: (r) => !isPrefix(r),
        form: {
          title: 'Download',
          schema: DownloadRequest,
          fields: ['path'],
          initial: (r) => ({ path: `./${basename(r!.name)}` }),
          confirm: (body) => (existsSync(localPath(body.path as string)) ? `${localPath(body.path as string)} exists. Replace it?` : undefined),
          submit: async (body, ctx, r) => {
            const path = localPath(body.path as string);
            return { path, bytes: await downloadToFile(await signed(ctx, where, r!.name, 'GET'), path) };
          },
          done: (r) => {
            const { path, bytes } = r as { path: string; bytes: number };
            return `Saved ${bytesText(bytes)} to ${path}`;
          },
        },
      },
    ],
    create: {
      title: `Upload to ${where.bucket}/${prefix}`,
      schema: UploadRequest,
      fields: ['path', 'name', 'content_type'],
      confirm: (body) => {
        const name = (body.name as string | undefined) ?? prefix + basename(body.path as string);
        return loaded().some((e) => e.name === name) ? `${name} exists. Replace it with ${body.path as string}?` : undefined;
      },
      submit: async (body, ctx) => {
        const path = localPath(body.path as string);
        const name = (body.name as string | undefined) ?? prefix + basename(path);
        const type = (body.content_type as string | undefined) ?? guessContentType(path);
        return { name, bytes: await uploadFile(await signed(ctx, where, name, 'PUT', type), path, type), type };
      },
      done: (r) => {
        const { name, bytes, type } = r as { name: string; bytes: number; type: string };
        return `Uploaded ${name} (${bytesText(bytes)}, ${type})`;
      },
      invalidates: () => [BUCKETS_PATH],
    },
    delete: {
      refuse: (r) => (r.more ? 'Not an object' : isPrefix(r) ? `${r.name} is a folder: open it (Enter) to delete the objects in it` : undefined),
      confirm: (r) => `Delete ${r.name} (${bytesText(r.size)}) from ${where.bucket}? This cannot be undone.`,
      submit: async (r, ctx) => deleteThroughUrl(await signed(ctx, where, r.name, 'DELETE')),
      invalidates: () => [BUCKETS_PATH],
    },
  };
}
