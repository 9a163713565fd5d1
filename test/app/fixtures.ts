import { defineScreen, type ScreenDef } from '../../src/app/screen.js';
import { Tag } from '../../src/model/tags.js';
import { Token } from '../../src/model/tokens.js';
import home from '../../src/screens/home/index.js';
import regions from '../../src/screens/regions/index.js';

/**
 * Screens over endpoints the service has, written only for these tests:
 * they exercise create, delete, actions, secrets and drilling the way area
 * screens will.
 */

interface TagRow {
  label: string;
}

const tags = defineScreen<TagRow>({
  id: 'tags',
  title: 'Tags',
  aliases: ['tag'],
  list: {
    path: '/tags',
    rowKey: (t) => t.label,
    label: (t) => t.label,
    writeScope: 'account:read_write',
    columns: [{ key: 'label', title: 'Label' }],
    drill: (t) => ({ screen: 'tag-objects', params: { label: t.label } }),
    create: { schema: Tag, fields: ['label'], submit: (body, ctx) => ctx.client.post('/tags', body) },
    delete: { typeToConfirm: true, submit: (t, ctx) => ctx.client.delete(`/tags/${encodeURIComponent(t.label)}`) },
  },
});

const tagObjects = defineScreen<{ type: string; data: { id: number; label: string } }>({
  id: 'tag-objects',
  title: 'Tagged',
  params: ['label'],
  list: {
    path: (p) => `/tags/${encodeURIComponent(p.label!)}`,
    rowKey: (o) => `${o.type}:${o.data.id}`,
    columns: [
      { key: 'type', title: 'Type', width: 12 },
      { key: 'data.label', title: 'Label' },
    ],
  },
});

interface TokenRow {
  id: number;
  label: string;
  scopes: string;
}

const tokens = defineScreen<TokenRow>({
  id: 'tokens',
  title: 'Tokens',
  list: {
    path: '/profile/tokens',
    writeScope: 'account:read_write',
    columns: [
      { key: 'id', title: 'ID', width: 4 },
      { key: 'label', title: 'Label' },
      { key: 'scopes', title: 'Scopes' },
    ],
    create: {
      schema: Token,
      fields: ['label', 'scopes'],
      submit: (body, ctx) => ctx.client.post('/profile/tokens', body),
      done: (r) => ({ message: 'Token created', secret: { title: 'New token', value: (r as { token: string }).token } }),
    },
    actions: [
      {
        id: 'revoke',
        label: 'Revoke',
        key: 'r',
        destructive: true,
        confirm: (t) => `Revoke token "${t.label}"? Clients using it stop working.`,
        run: async (t, ctx) => {
          await ctx.client.delete(`/profile/tokens/${t.id}`);
          return `Revoked ${t.label}`;
        },
      },
      { id: 'rename', label: 'Rename', form: { schema: Token, mode: 'update', fields: ['label'], initial: (t) => ({ label: t?.label }), submit: (body, ctx, t) => ctx.client.put(`/profile/tokens/${t!.id}`, body) } },
    ],
  },
});

const instances = defineScreen<{ id: number; label: string }>({
  id: 'instances',
  title: 'Instances',
  aliases: ['vm'],
  list: { path: '/vm/instances', writeScope: 'vms:read_write', columns: [{ key: 'label', title: 'Label' }] },
});

/** The framework's own screens: tests of the core do not depend on the areas' screens. */
export const coreScreens: ScreenDef[] = [...home, ...regions];

export const testScreens: ScreenDef[] = [...coreScreens, tags, tagObjects, tokens, instances];
