import { defineScreen, type ListSpec } from '../../app/screen.js';
import { CONTACTS_PATH, createContact, deleteContact, getContact, updateContact, type ManagedContact } from '../../api/managed.js';
import { ManagedContact as ContactSchema } from '../../model/managed.js';
import type { FormSpec } from '../../components/form/types.js';

const RW = 'account:read_write';

/** Both numbers on one line: who to call first, then the fallback. */
export const phones = (c: Pick<ManagedContact, 'phone'>) => [c.phone?.primary, c.phone?.secondary].filter(Boolean).join(' · ');

const FIELDS = ['name', 'email', 'phone.primary', 'phone.secondary', 'group'];

const form = (mode: 'create' | 'update'): FormSpec<ManagedContact> => ({
  schema: ContactSchema,
  mode,
  fields: FIELDS,
  overrides: { group: { help: 'Services name this group as their contact group (consultation group)' } },
  scope: RW,
  submit: (body, ctx, row) => (row ? updateContact(ctx.client, row.id, body) : createContact(ctx.client, body)),
  done: (result, row) => `${row ? 'Saved' : 'Created'} contact ${(result as ManagedContact).name ?? (result as ManagedContact).id}`,
});

export const contactList: ListSpec<ManagedContact> = {
  path: CONTACTS_PATH,
  label: (c) => c.name ?? c.email ?? `contact ${c.id}`,
  writeScope: RW,
  columns: [
    { key: 'name', title: 'Name', flex: 2, identifier: true },
    { key: 'email', title: 'Email', flex: 3, identifier: true },
    { key: 'phone', title: 'Phone (primary · secondary)', flex: 4, format: phones },
    { key: 'group', title: 'Group', width: 11 },
  ],
  detail: {
    sections: [
      { title: 'Contact', fields: ['name', 'email', 'group'] },
      { title: 'Phone', fields: ['phone.primary', 'phone.secondary'] },
      { title: 'Record', fields: ['id', 'updated'] },
    ],
    fetch: (c, ctx) => getContact(ctx.client, c.id),
  },
  create: form('create'),
  edit: form('update'),
  delete: {
    confirm: (c) => `Delete the contact ${c.name ?? c.id}? Issues will no longer be reported to ${c.email ?? 'them'}.`,
    submit: (c, ctx) => deleteContact(ctx.client, c.id),
  },
  empty: 'No contacts yet: nobody is told about issues. Press c to add one.',
};

export const contacts = defineScreen<ManagedContact>({
  id: 'contacts',
  title: 'Contacts',
  aliases: ['contact', 'managed-contacts'],
  description: 'Managed: who is alerted about issues, by group',
  list: contactList,
});
