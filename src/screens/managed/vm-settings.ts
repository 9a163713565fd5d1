import { defineScreen, type ListSpec } from '../../app/screen.js';
import { VM_SETTINGS_PATH, getVmSettings, updateVmSettings, type ManagedVMSettings } from '../../api/managed.js';
import { ManagedVMSettings as SettingsSchema } from '../../model/managed.js';
import type { FormSpec } from '../../components/form/types.js';
import { entityRoute } from '../events/entity-link.js';

const RW = 'account:read_write';

/** What support uses to log in: one line, as ssh would be typed. */
export const sshLine = (s: ManagedVMSettings) => (s.ssh.access ? `ssh ${s.ssh.user}@${s.ssh.ip === 'any' ? '<any address>' : s.ssh.ip} -p ${s.ssh.port}` : 'support may not log in');

export const sshEdit: FormSpec<ManagedVMSettings> = {
  schema: SettingsSchema,
  mode: 'update',
  fields: ['ssh.access', 'ssh.user', 'ssh.ip', 'ssh.port'],
  scope: RW,
  submit: (body, ctx, row) => updateVmSettings(ctx.client, row!.id, body),
  done: (result) => `SSH access of ${(result as ManagedVMSettings).label}: ${sshLine(result as ManagedVMSettings)}`,
};

export const vmSettingsList: ListSpec<ManagedVMSettings> = {
  path: VM_SETTINGS_PATH,
  writeScope: RW,
  columns: [
    { key: 'label', title: 'Instance', flex: 2, identifier: true },
    { key: 'id', title: 'ID', width: 8, align: 'right' },
    { key: 'ssh.access', title: 'Access', width: 6, format: (s) => (s.ssh.access ? 'yes' : 'no'), color: (s) => (s.ssh.access ? 'green' : 'yellow') },
    { key: 'ssh.user', title: 'User', width: 10 },
    { key: 'ssh.ip', title: 'SSH address', flex: 2, identifier: true },
    { key: 'ssh.port', title: 'Port', width: 5, align: 'right' },
  ],
  detail: {
    sections: [
      { title: 'Instance', fields: ['id', 'label', 'group'] },
      { title: 'Support SSH access', fields: ['ssh.access', 'ssh.user', 'ssh.ip', 'ssh.port'] },
    ],
    fetch: (s, ctx) => getVmSettings(ctx.client, s.id),
  },
  // Enter opens the instance itself; e edits how support reaches it.
  drill: (s) => entityRoute('vm', s.id, s.label),
  edit: sshEdit,
  empty: 'No instances on the account, so no access settings.',
};

export const vmSettings = defineScreen<ManagedVMSettings>({
  id: 'vm-settings',
  title: 'Instance access',
  aliases: ['ssh-access', 'managed-ssh', 'vmsettings'],
  description: 'Managed: how support staff may SSH into each instance',
  list: vmSettingsList,
});
