import { defineScreen } from '../../app/screen.js';
import { IMAGES_PATH, createImage, deleteImage, getImage, updateImage, type Image } from '../../api/images.js';
import { Image as ImageSchema, NOT_DEPLOYABLE, PRIVATE_IMAGE_LIMIT, deployable } from '../../model/images.js';
import { sizeText } from '../instances/format.js';
import { dateText, dateTimeText } from '../../components/dates.js';
import { diskChoices } from './disk-choices.js';

const IMAGES_RW = 'images:read_write';

/** public, private, deprecated or automatic (made from a deleted instance) in one column; an image not deployable yet (later releases' status) says so first. */
function kindText(i: Image): string {
  if (!deployable(i)) return String(i.status);
  if (i.deprecated) return 'deprecated';
  if (i.is_public) return 'public';
  return i.type === 'automatic' ? 'private auto' : 'private';
}

const kindColor = (i: Image) => (!deployable(i) || i.deprecated ? 'yellow' : i.is_public ? undefined : 'cyan');

const PUBLIC_REFUSAL = 'Public images cannot be changed or deleted; only your private ones';

export const images = defineScreen<Image>({
  id: 'images',
  title: 'Images',
  aliases: ['image', 'img'],
  description: `Public images and your private ones (at most ${PRIVATE_IMAGE_LIMIT}) captured from disks`,
  list: {
    path: IMAGES_PATH,
    rowKey: (i) => i.id,
    writeScope: IMAGES_RW,
    grant: { kind: 'image', add: 'add_images' },
    columns: [
      { key: 'id', title: 'ID', width: 15, identifier: true },
      { key: 'label', title: 'Label', flex: 2, identifier: true },
      { key: 'is_public', title: 'Kind', width: 12, format: kindText, color: kindColor },
      { key: 'vendor', title: 'Vendor', width: 7 },
      { key: 'size', title: 'Size', width: 8, align: 'right', format: (i) => sizeText(i.size), sortValue: (i) => i.size },
      { key: 'created_by', title: 'By', flex: 1 },
      { key: 'eol', title: 'EOL', width: 10, format: (i) => dateText(i.eol), sortValue: (i) => i.eol ?? '9999' },
    ],
    detail: {
      sections: [
        { title: 'Image', fields: ['id', 'label', 'status', 'description', 'kind', 'type', 'vendor', 'size_text'] },
        { title: 'History', fields: ['created', 'created_by', 'updated', 'eol', 'expiry'] },
      ],
      fetch: async (i, ctx) => {
        const image = await getImage(ctx.client, i.id);
        return {
          ...image,
          kind: kindText(image),
          size_text: `${sizeText(image.size)} (the smallest disk it deploys to)`,
          created: dateTimeText(image.created),
          updated: dateTimeText(image.updated),
          eol: image.eol ? dateText(image.eol) : 'none',
          expiry: image.expiry ? dateText(image.expiry) : 'never',
          ...(deployable(image) ? {} : { status: `${image.status}: ${NOT_DEPLOYABLE}` }),
        };
      },
    },
    create: {
      title: 'New image from a disk',
      schema: ImageSchema,
      fields: ['disk_id', 'label', 'description'],
      overrides: { disk_id: { title: 'Disk', choices: diskChoices, help: 'Instance › disk to capture (not swap); the capture runs in the background' } },
      done: (r) => `Capturing ${(r as Image).label} as ${(r as Image).id}; it is usable once the capture event finishes`,
      submit: (body, ctx) => createImage(ctx.client, body as { disk_id: number }),
      // The answer names the image, not the instance the disk belongs to: the capture's event carries the image as its secondary entity.
      job: { event: 'disk_imagize', name: 'Capture', doing: 'Capturing', subject: (r) => ({ type: 'image', id: (r as Image).id, label: (r as Image).label }) },
    },
    edit: {
      schema: ImageSchema,
      fields: ['label', 'description'],
      refuse: (i) => (i.is_public ? PUBLIC_REFUSAL : undefined),
      submit: (body, ctx, i) => updateImage(ctx.client, i!.id, body),
    },
    delete: {
      refuse: (i) => (i.is_public ? PUBLIC_REFUSAL : undefined),
      typeToConfirm: true,
      confirm: (i) => `Delete the private image ${i.label} (${i.id}, ${sizeText(i.size)})? Instances can no longer be deployed from it; this cannot be undone.`,
      submit: (i, ctx) => deleteImage(ctx.client, i.id),
    },
  },
});
