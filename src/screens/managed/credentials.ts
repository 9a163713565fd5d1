import { defineScreen, type ListSpec } from '../../app/screen.js';
import {
  CREDENTIALS_PATH,
  SERVICES_PATH,
  createCredential,
  deleteCredential,
  getCredential,
  updateCredential,
  updateCredentialSecret,
  type ManagedCredential,
} from '../../api/managed.js';
import { ManagedCredential as CredentialSchema, ManagedCredentialSecret } from '../../model/managed.js';
import { agoText, apiTime, utc } from './time.js';

const RW = 'account:read_write';

export const credentialList: ListSpec<ManagedCredential> = {
  path: CREDENTIALS_PATH,
  writeScope: RW,
  columns: [
    { key: 'id', title: 'ID', width: 5, align: 'right' },
    { key: 'label', title: 'Label', identifier: true },
    {
      key: 'last_decrypted',
      title: 'Last decrypted by support',
      width: 34,
      format: (c) => (c.last_decrypted ? `${agoText(c.last_decrypted)} (${utc(c.last_decrypted)})` : 'never'),
      sortValue: (c) => apiTime(c.last_decrypted) || 0,
    },
  ],
  detail: {
    sections: [
      { title: 'Credential', fields: ['id', 'label', 'last_decrypted'] },
      { title: 'Username and password', fields: ['secrets'] },
    ],
    fetch: async (c, ctx) => ({
      ...(await getCredential(ctx.client, c.id)),
      secrets: 'write-only: the API never returns them; replace them with the Update password action (a, p)',
    }),
  },
  create: {
    schema: CredentialSchema,
    fields: ['label', 'username', 'password'],
    overrides: { password: { help: 'Stored encrypted for support staff; never shown again' } },
    scope: RW,
    submit: (body, ctx) => createCredential(ctx.client, body),
    done: (result) => `Created credential ${(result as ManagedCredential).label}`,
  },
  edit: {
    schema: CredentialSchema,
    fields: ['label'],
    scope: RW,
    submit: (body, ctx, row) => updateCredential(ctx.client, row!.id, body),
    // Services and issues show credentials by label.
    invalidates: () => [SERVICES_PATH],
  },
  actions: [
    {
      id: 'password',
      label: 'Update password',
      key: 'p',
      scope: RW,
      form: {
        title: 'Update the stored password',
        schema: ManagedCredentialSecret,
        fields: ['password', 'username'],
        overrides: { username: { help: 'Leave empty to keep the stored username' } },
        scope: RW,
        submit: (body, ctx, row) => updateCredentialSecret(ctx.client, row!.id, body),
        done: (_result, row) => `Password of ${row?.label} updated`,
      },
    },
  ],
  delete: {
    confirm: (c) => `Delete the credential "${c.label}"? Services that use it stop offering it to support staff.`,
    submit: (c, ctx) => deleteCredential(ctx.client, c.id),
    invalidates: () => [SERVICES_PATH],
  },
  empty: 'No stored credentials. Press c to store one for support staff.',
};

export const credentials = defineScreen<ManagedCredential>({
  id: 'credentials',
  title: 'Credentials',
  aliases: ['credential', 'creds', 'managed-credentials'],
  description: 'Managed: credentials support staff may use (write-only)',
  list: credentialList,
});
