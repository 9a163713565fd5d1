import { INSTANCES_PATH, deleteInstance, getInstance, type Instance } from '../../api/instances.js';
import { defineScreen } from '../../app/screen.js';
import { instanceStatusColor, publicIpv4 } from './format.js';
import { dateSort, dateText } from '../../components/dates.js';
import { createInstanceForm, editInstanceForm } from './instance-forms.js';
import { instanceActions } from './instance-actions.js';
import { OVERVIEW_SCREEN } from './sub-lists.js';

/** :instances: status changes (provisioning → running) arrive with the list's background refresh. */
export const instances = defineScreen<Instance>({
  id: 'instances',
  title: 'Instances',
  aliases: ['vm', 'vms', 'servers'],
  description: 'Compute instances: boot, clone, disks, configs, backups',
  list: {
    path: INSTANCES_PATH,
    writeScope: 'vms:read_write',
    grant: { kind: 'vm', add: 'add_vms' },
    columns: [
      { key: 'label', title: 'Label', flex: 3, identifier: true },
      { key: 'status', title: 'Status', flex: 1, color: (vm) => instanceStatusColor(vm.status) },
      { key: 'region', title: 'Region', flex: 1 },
      { key: 'type', title: 'Type', flex: 1, identifier: true },
      { key: 'ipv4', title: 'IPv4', flex: 1, identifier: true, format: (vm) => publicIpv4(vm.ipv4) },
      { key: 'tags', title: 'Tags', flex: 1 },
      { key: 'created', title: 'Created', width: 10, format: (vm) => dateText(vm.created), sortValue: (vm) => dateSort(vm.created) },
    ],
    detail: {
      fetch: (vm, ctx) => getInstance(ctx.client, vm.id),
      sections: [
        { title: 'Instance', fields: ['id', 'label', 'status', 'region', 'type', 'image', 'tags', 'group', 'hypervisor', 'created', 'updated'] },
        { title: 'Specs (memory and disk in MB)', fields: ['specs.vcpus', 'specs.memory', 'specs.disk', 'specs.transfer'] },
        { title: 'Addresses', fields: ['ipv4', 'ipv6'] },
        { title: 'Alerts (0 = off)', fields: ['alerts.cpu', 'alerts.io', 'alerts.network_in', 'alerts.network_out', 'alerts.transfer_quota'] },
        { title: 'Backups', fields: ['backups.enabled', 'backups.schedule.day', 'backups.schedule.window', 'backups.last_successful'] },
        { title: 'Watchdog', fields: ['watchdog_enabled'] },
      ],
    },
    drill: (vm) => ({ screen: OVERVIEW_SCREEN, params: { id: String(vm.id) } }),
    instance: (vm) => vm,
    create: createInstanceForm,
    edit: editInstanceForm,
    delete: {
      typeToConfirm: true,
      confirm: (vm) =>
        `Delete ${vm.label} (${vm.id})? Its disks, configs and backups are deleted and its addresses (${vm.ipv4.join(', ') || 'none'}) released; billing stops.`,
      submit: (vm, ctx) => deleteInstance(ctx.client, vm.id),
    },
    actions: instanceActions,
    empty: 'No instances yet. Press c to create one.',
  },
});
