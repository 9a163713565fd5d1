import { defineResource } from './schema.js';
import { charset } from './formats.js';

export const IMAGE_TYPES = ['manual', 'automatic'] as const;
/** Later releases say whether an image can be deployed yet; only `available` can. */
export const IMAGE_STATUSES = ['creating', 'pending_upload', 'available'] as const;

/** The seed's "images: per account: three". */
export const PRIVATE_IMAGE_LIMIT = 3;

export const IMAGE_LABEL_MAX = 50;

/** "No special characters": letters, digits, spaces, dashes, underscores and periods. */
const IMAGE_LABEL_CHARS = /^[A-Za-z0-9 ._-]*$/;
const NOT_IMAGE_LABEL_CHARS = /[^A-Za-z0-9 ._-]/g;

export const imageLabel = charset(IMAGE_LABEL_CHARS, 'letters, digits, spaces, dashes, underscores and periods');

/** The label an image gets from its disk when none is given: the disk's label without the characters images refuse. */
export function imageLabelFromDisk(diskLabel: string, diskId: number): string {
  const cleaned = diskLabel.replace(NOT_IMAGE_LABEL_CHARS, '').trim().slice(0, IMAGE_LABEL_MAX);
  return cleaned === '' ? `disk-${diskId}` : cleaned;
}

export const Image = defineResource('image', {
  id: { kind: 'string', readOnly: true, title: 'ID' },
  label: {
    kind: 'string',
    title: 'Label',
    help: 'Defaults to the disk label; letters, digits, spaces, - _ . only',
    filterable: true,
    minLength: 1,
    maxLength: IMAGE_LABEL_MAX,
    check: imageLabel,
  },
  description: { kind: 'string', title: 'Description', maxLength: 65000, default: '' },
  disk_id: {
    kind: 'integer',
    title: 'Disk',
    help: 'ID of the disk to capture; not a swap disk',
    required: true,
    createOnly: true,
    writeOnly: true,
    min: 1,
  },
  created: { kind: 'datetime', readOnly: true },
  updated: { kind: 'datetime', readOnly: true },
  created_by: { kind: 'string', readOnly: true, title: 'Created by' },
  deprecated: { kind: 'boolean', readOnly: true, filterable: true },
  is_public: { kind: 'boolean', readOnly: true, filterable: true, title: 'Public' },
  size: { kind: 'integer', readOnly: true, filterable: true, title: 'Size (MB)' },
  type: { kind: 'enum', values: IMAGE_TYPES, readOnly: true },
  expiry: { kind: 'datetime', readOnly: true, nullable: true },
  eol: { kind: 'datetime', readOnly: true, nullable: true, title: 'End of life' },
  vendor: { kind: 'string', readOnly: true, nullable: true, filterable: true },
  status: { kind: 'enum', values: IMAGE_STATUSES, readOnly: true, newer: true, title: 'Status' },
});

/** An image as the API returns it. */
export interface Image {
  id: string;
  label: string;
  description: string;
  created: string;
  updated: string;
  created_by: string;
  deprecated: boolean;
  is_public: boolean;
  /** MB. */
  size: number;
  type: (typeof IMAGE_TYPES)[number];
  expiry: string | null;
  eol: string | null;
  vendor: string | null;
  /** Sent by later releases only. */
  status?: string;
}

/** An image instances can be deployed from now: 4.83.1 sends no status (its images are), later releases say `available`. */
export const deployable = (i: Pick<Image, 'status'>) => i.status === undefined || i.status === null || i.status === 'available';

/** Why: only `available` images deploy. */
export const NOT_DEPLOYABLE = 'not deployable yet';

/** The stored image row, as reference.ts seeds the public ones. */
export interface ImageRecord extends Image, Record<string, unknown> {}

export const PRIVATE_IMAGE_PREFIX = 'private/';
export const PUBLIC_IMAGE_PREFIX = 'vm/';
