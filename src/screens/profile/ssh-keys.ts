import { defineScreen } from '../../app/screen.js';
import { ACCOUNT_WRITE, SSH_KEYS_PATH, createSSHKey, deleteSSHKey, getSSHKey, updateSSHKey, type SSHKey as KeyRow } from '../../api/profile.js';
import { SSHKey } from '../../model/profile.js';
import { dateText } from '../../components/dates.js';
import { fingerprint, keyParts, keyShort } from './ssh-key-text.js';

export const sshKeys = defineScreen<KeyRow>({
  id: 'sshkeys',
  title: 'SSH keys',
  aliases: ['ssh'],
  home: false,
  description: 'Public keys put on instances deployed with your user',
  list: {
    path: SSH_KEYS_PATH,
    writeScope: ACCOUNT_WRITE,
    columns: [
      { key: 'label', title: 'Label', flex: 1, identifier: true },
      { key: 'ssh_key', title: 'Key', width: 24, format: (k) => keyShort(k.ssh_key) },
      { key: 'fingerprint', title: 'Fingerprint', flex: 1, format: (k) => fingerprint(k.ssh_key) },
      { key: 'created', title: 'Added', width: 10, format: (k) => dateText(k.created, '—'), sortValue: (k) => k.created },
    ],
    detail: {
      fetch: (k, ctx) => getSSHKey(ctx.client, k.id),
      sections: [
        { title: 'Key', fields: ['label', 'id', 'created'] },
        { title: 'Public key', fields: ['ssh_key'] },
      ],
    },
    create: {
      title: 'Add an SSH key',
      schema: SSHKey,
      fields: ['label', 'ssh_key'],
      overrides: { ssh_key: { help: 'Paste the public key, e.g. the contents of ~/.ssh/id_ed25519.pub' } },
      submit: (body, ctx) => createSSHKey(ctx.client, body),
      done: (k) => `Added SSH key ${(k as KeyRow).label} (${fingerprint((k as KeyRow).ssh_key)})`,
    },
    edit: {
      schema: SSHKey,
      fields: ['label'],
      submit: (body, ctx, k) => updateSSHKey(ctx.client, k!.id, body),
    },
    delete: {
      verb: 'Remove',
      confirm: (k) =>
        `Remove the key "${k.label}" (${keyParts(k.ssh_key).type} ${fingerprint(k.ssh_key)}) from your profile? Only the profile forgets it: instances and disks it was already deployed to keep it.`,
      submit: (k, ctx) => deleteSSHKey(ctx.client, k.id),
    },
    empty: 'No SSH keys on your profile. Press c to add one.',
  },
});
