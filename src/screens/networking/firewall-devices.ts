import { dateSort, dateTimeText } from '../../components/dates.js';
import { defineScreen } from '../../app/screen.js';
import { FIREWALLS_PATH, addDevice, devicesPath, listDevices, removeDevice, type FirewallDevice } from '../../api/firewalls.js';
import { instanceChoices } from '../../api/ips.js';
import type { ApiClient } from '../../api/client.js';
import type { ChoiceScope } from '../../components/form/types.js';
import { FirewallDeviceCreate } from '../../model/firewalls.js';
import { DEVICES_SCREEN } from './ids.js';
import { FIREWALL_WRITE } from './rule-forms.js';

/** Instances this firewall does not protect yet. */
async function unprotected(client: ApiClient, scope: ChoiceScope) {
  const taken = new Set((await listDevices(client, scope.params.fw!)).map((d) => d.entity.id));
  return instanceChoices(client, (vm) => !taken.has(vm.id));
}

const touchesFirewalls = () => [FIREWALLS_PATH];

export const firewallDevices = defineScreen<FirewallDevice>({
  id: DEVICES_SCREEN,
  title: 'Devices',
  params: ['fw'],
  list: {
    path: (p) => devicesPath(p.fw!),
    root: 'beta',
    writeScope: FIREWALL_WRITE,
    label: (d) => d.entity.label,
    columns: [
      { key: 'entity.label', title: 'Instance', flex: 2 },
      { key: 'entity.id', title: 'ID', width: 8, align: 'right' },
      { key: 'entity.type', title: 'Type', width: 4 },
      { key: 'created', title: 'Added', width: 16, format: (r) => dateTimeText(r.created), sortValue: (r) => dateSort(r.created) },
    ],
    detail: { sections: [{ title: 'Device', fields: ['id', 'entity.label', 'entity.id', 'entity.type', 'entity.url', 'created', 'updated'] }] },
    create: {
      title: 'Add a device (protect an instance)',
      schema: FirewallDeviceCreate,
      fields: ['id', 'type'],
      overrides: { id: { title: 'Instance', choices: unprotected }, type: { hidden: true } },
      submit: (body, ctx) => addDevice(ctx.client, ctx.params.fw!, body),
      done: (d) => `Added ${(d as FirewallDevice).entity.label}: the firewall's rules apply to it now`,
      invalidates: touchesFirewalls,
      scope: FIREWALL_WRITE,
    },
    delete: {
      verb: 'Remove',
      confirm: (d) => `Remove ${d.entity.label} from this firewall? Its rules stop protecting ${d.entity.label} at once; rules of its other firewalls stay.`,
      submit: (d, ctx) => removeDevice(ctx.client, ctx.params.fw!, d.id),
      invalidates: touchesFirewalls,
    },
    empty: 'This firewall protects nothing yet. Press c to add an instance.',
  },
});
