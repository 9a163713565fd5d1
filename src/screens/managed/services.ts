import type { ApiClient } from '../../api/client.js';
import { defineScreen, type ActionSpec, type ListSpec } from '../../app/screen.js';
import {
  ISSUES_PATH,
  SERVICES_PATH,
  createService,
  deleteService,
  disableService,
  enableService,
  getService,
  listContacts,
  listCredentials,
  updateService,
  type ManagedService,
} from '../../api/managed.js';
import { regionChoices } from '../../api/regions.js';
import { ManagedService as ServiceSchema } from '../../model/managed.js';
import type { ChoiceScope, FormSpec } from '../../components/form/types.js';
import { statusColor, statusLook } from './status.js';
import { agoText, utc } from './time.js';

const RW = 'account:read_write';

/** The groups contacts are in, so a service names a group that reaches someone. */
async function groupChoices(client: ApiClient, scope: ChoiceScope) {
  const groups = new Set((await listContacts(client)).map((c) => c.group).filter((g): g is string => Boolean(g)));
  const current = (scope.row as ManagedService | undefined)?.consultation_group;
  if (current) groups.add(current);
  return [{ value: '', label: '— none —' }, ...[...groups].sort().map((g) => ({ value: g }))];
}

async function credentialChoices(client: ApiClient) {
  return (await listCredentials(client)).map((c) => ({ value: String(c.id), label: c.label }));
}

/** A public address must not name a region (the model's rule), so "none" is a choice too. */
async function serviceRegionChoices(client: ApiClient) {
  return [{ value: '', label: '— none (public address) —' }, ...(await regionChoices(client))];
}

const form = (mode: 'create' | 'update'): FormSpec<ManagedService> => ({
  schema: ServiceSchema,
  mode,
  fields: ['label', 'service_type', 'address', 'timeout', 'body', 'consultation_group', 'credentials', 'notes', 'region'],
  overrides: {
    consultation_group: { choices: groupChoices, help: 'Contacts in this group are alerted (see :contacts)' },
    credentials: { choices: credentialChoices, help: 'Enter picks: credentials support may use on this service' },
    region: { choices: serviceRegionChoices, help: 'Required for a private (192.168.x) address; must be none otherwise' },
  },
  scope: RW,
  submit: (body, ctx, row) => (row ? updateService(ctx.client, row.id, body) : createService(ctx.client, body)),
  invalidates: () => [ISSUES_PATH],
});

export const serviceEdit = form('update');

/** Disable and enable, each asked first: a disabled service raises no issue while it is down. */
export const serviceActions: ActionSpec<ManagedService>[] = [
  {
    id: 'disable',
    bulk: true,
    label: 'Disable monitoring',
    key: 'm',
    scope: RW,
    destructive: true,
    when: (s) => s.status !== 'disabled',
    confirm: (s) => `Stop monitoring "${s.label}"? No issue is raised and nobody is alerted while it is disabled.`,
    run: async (s, ctx) => {
      await disableService(ctx.client, s.id);
      return `Monitoring of ${s.label} disabled`;
    },
    invalidates: () => [ISSUES_PATH],
  },
  {
    id: 'enable',
    bulk: true,
    label: 'Enable monitoring',
    key: 'm',
    scope: RW,
    when: (s) => s.status === 'disabled',
    confirm: (s) => `Start monitoring "${s.label}" again? It is pending until its first check.`,
    run: async (s, ctx) => {
      const after = await enableService(ctx.client, s.id);
      return `Monitoring of ${s.label} enabled: ${after.status}`;
    },
    invalidates: () => [ISSUES_PATH],
  },
];

export const serviceList: ListSpec<ManagedService> = {
  path: SERVICES_PATH,
  writeScope: RW,
  columns: [
    { key: 'label', title: 'Label', flex: 2, identifier: true },
    { key: 'status', title: 'Status', width: 10, format: (s) => statusLook(s.status).text, color: (s) => statusColor(s.status) },
    { key: 'service_type', title: 'Type', width: 4 },
    { key: 'address', title: 'Address', flex: 3, identifier: true },
    { key: 'timeout', title: 'Tmo', width: 4, align: 'right', format: (s) => `${s.timeout}s`, sortValue: (s) => s.timeout },
    { key: 'consultation_group', title: 'Group', width: 11 },
  ],
  detail: {
    sections: [
      { title: 'Service', fields: ['label', 'status', 'service_type', 'address', 'region'] },
      { title: 'Check', fields: ['timeout', 'body'] },
      { title: 'Support', fields: ['consultation_group', 'credential_labels', 'notes'] },
      { title: 'Record', fields: ['id', 'created', 'updated'] },
    ],
    fetch: async (s, ctx) => {
      const [full, creds] = await Promise.all([getService(ctx.client, s.id), listCredentials(ctx.client)]);
      const names = new Map(creds.map((c) => [c.id, c.label]));
      return {
        ...full,
        credential_labels: full.credentials.map((id) => names.get(id) ?? `#${id} (deleted)`),
        created: `${utc(full.created)} (${agoText(full.created)})`,
        updated: `${utc(full.updated)} (${agoText(full.updated)})`,
      };
    },
  },
  create: form('create'),
  edit: serviceEdit,
  actions: serviceActions,
  delete: {
    confirm: (s) => `Delete the monitored service "${s.label}"? Its history goes with it.`,
    submit: (s, ctx) => deleteService(ctx.client, s.id),
    invalidates: () => [ISSUES_PATH],
  },
  empty: 'No monitored services. Press c to add one.',
};

export const services = defineScreen<ManagedService>({
  id: 'services',
  title: 'Services',
  aliases: ['service', 'svc', 'managed-services'],
  description: 'Managed: monitored services and their status',
  list: serviceList,
});
