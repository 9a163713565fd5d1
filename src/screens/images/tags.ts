import { defineScreen } from '../../app/screen.js';
import { listBalancers } from '../../api/nodebalancers.js';
import { TAGS_PATH, createTag, deleteTag, tagPath, type Tag, type TaggedObject } from '../../api/tags.js';
import type { ApiClient } from '../../api/client.js';
import { Tag as TagSchema } from '../../model/tags.js';
import { entityRoute } from '../events/entity-link.js';
import { instanceChoices } from '../instances/choices.js';

const TAGS_RW = 'account:read_write';

const TYPE_TEXT: Record<string, string> = { vm: 'instance', nodebalancer: 'load balancer', domain: 'domain', volume: 'volume' };

async function balancerChoices(client: ApiClient) {
  return (await listBalancers(client)).map((b) => ({ value: String(b.id), label: `${b.label} (${b.id}) · ${b.region}` }));
}

const statusColor = (s: string | undefined) => (s === 'running' || s === 'active' ? 'green' : s === 'offline' || s === 'stopped' ? 'gray' : s ? 'yellow' : undefined);

export const tags = defineScreen<Tag>({
  id: 'tags',
  title: 'Tags',
  aliases: ['tag'],
  description: 'Labels on instances and load balancers; Enter lists what carries one',
  list: {
    path: TAGS_PATH,
    rowKey: (t) => t.label,
    writeScope: TAGS_RW,
    columns: [{ key: 'label', title: 'Tag', identifier: true }],
    drill: (t) => ({ screen: 'tagged', params: { label: t.label } }),
    create: {
      title: 'New tag',
      schema: TagSchema,
      fields: ['label', 'vms', 'nodebalancers'],
      overrides: {
        vms: { choices: instanceChoices, help: 'Enter picks instances to tag now (needs write access to each)' },
        nodebalancers: { choices: balancerChoices, help: 'Enter picks load balancers to tag now (needs write access to each)' },
      },
      submit: (body, ctx) => createTag(ctx.client, body as { label: string }),
      done: (r) => `Created tag ${(r as Tag).label}`,
      invalidates: () => ['/vm/instances', '/nodebalancers'],
    },
    delete: {
      confirm: (t) => `Delete the tag ${t.label}? It is removed from every instance and load balancer carrying it.`,
      submit: (t, ctx) => deleteTag(ctx.client, t.label),
      invalidates: (t) => [tagPath(t.label), '/vm/instances', '/nodebalancers'],
    },
    empty: 'No tags. Press c to create one, or tag an instance or load balancer when editing it.',
  },
});

/** What carries a tag; Enter opens the object in its own area. */
export const tagged = defineScreen<TaggedObject>({
  id: 'tagged',
  title: 'Tagged',
  params: ['label'],
  list: {
    path: (p) => tagPath(p.label!),
    rowKey: (o) => `${o.type}:${o.data.id}`,
    label: (o) => o.data.label ?? String(o.data.id),
    columns: [
      { key: 'type', title: 'Type', width: 14, format: (o) => TYPE_TEXT[o.type] ?? o.type },
      { key: 'data.id', title: 'ID', width: 8, align: 'right' },
      { key: 'data.label', title: 'Label', flex: 2, identifier: true },
      { key: 'data.status', title: 'Status', width: 14, color: (o) => statusColor(o.data.status) },
      { key: 'data.region', title: 'Region', width: 12 },
      { key: 'data.tags', title: 'All tags', flex: 1 },
    ],
    drill: (o) => entityRoute(o.type, o.data.id, o.data.label ?? String(o.data.id)),
    empty: 'Nothing carries this tag any more.',
  },
});
