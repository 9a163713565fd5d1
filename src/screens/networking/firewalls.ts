import { FIREWALLS_LIST } from '../../store/lists.js';
import { dateSort, dateTimeText } from '../../components/dates.js';
import { defineScreen, type DetailSection } from '../../app/screen.js';
import { FIREWALLS_PATH, deleteFirewall, listFirewallsWithDeviceCounts, updateFirewall, type Firewall, type FirewallWithDevices } from '../../api/firewalls.js';
import { rulesHeading } from './ruleset.js';
import { firewallCreateForm, firewallEditForm, rulesJsonForm } from './firewall-forms.js';
import { FIREWALLS_SCREEN, FIREWALL_SCREEN } from './ids.js';
import { FIREWALL_WRITE } from './rule-forms.js';
import { plural } from '../../model/plural.js';

/** A firewall in detail, here and on its own screen: its rules headed by what happens to the traffic they do not match. */
export const firewallSections = (fw: Partial<Firewall>): DetailSection[] => [
  { title: 'Firewall', fields: ['id', 'label', 'status', 'device_count', 'tags', 'rules.inbound_policy', 'rules.outbound_policy'] },
  { title: rulesHeading(fw.rules ?? {}, 'inbound'), fields: ['rules.inbound'] },
  { title: rulesHeading(fw.rules ?? {}, 'outbound'), fields: ['rules.outbound'] },
  { title: 'Dates', fields: ['created', 'updated'] },
];

const statusColor = (s: string) => (s === 'enabled' ? 'green' : s === 'disabled' ? 'gray' : 'red');
const devices = (n: number) => plural(n, 'device');

export const firewalls = defineScreen<FirewallWithDevices>({
  id: FIREWALLS_SCREEN,
  title: 'Firewalls',
  aliases: ['fw', 'firewall-list'],
  description: 'Cloud firewalls (beta): rules and protected instances',
  // The plain list (the overview's firewalls read it), not the loader's, which reads every firewall's devices too.
  count: (_client, data) => data.getState().countList(FIREWALLS_LIST),
  list: {
    path: FIREWALLS_PATH,
    root: 'beta',
    load: (client) => listFirewallsWithDeviceCounts(client),
    writeScope: FIREWALL_WRITE,
    columns: [
      { key: 'label', title: 'Label', flex: 2 },
      { key: 'status', title: 'Status', width: 8, color: (f) => statusColor(f.status) },
      { key: 'rules.inbound', title: 'In', width: 3, align: 'right', format: (f) => String(f.rules.inbound.length), sortValue: (f) => f.rules.inbound.length },
      { key: 'rules.outbound', title: 'Out', width: 3, align: 'right', format: (f) => String(f.rules.outbound.length), sortValue: (f) => f.rules.outbound.length },
      { key: 'device_count', title: 'Devices', width: 7, align: 'right' },
      { key: 'tags', title: 'Tags', flex: 2 },
      { key: 'updated', title: 'Updated', width: 16, format: (r) => dateTimeText(r.updated), sortValue: (r) => dateSort(r.updated) },
    ],
    detail: { sections: firewallSections },
    drill: (f) => ({ screen: FIREWALL_SCREEN, params: { fw: String(f.id) } }),
    create: firewallCreateForm,
    edit: firewallEditForm,
    delete: {
      confirm: (f) => `Delete firewall ${f.label}? Its rules stop protecting its ${devices(f.device_count)} at once; rules of their other firewalls stay.`,
      submit: (f, ctx) => deleteFirewall(ctx.client, f.id),
    },
    actions: [
      {
        id: 'enable',
        bulk: true,
        label: 'Enable',
        key: 'n',
        when: (f) => f.status === 'disabled',
        run: async (f, ctx) => {
          await updateFirewall(ctx.client, f.id, { status: 'enabled' });
          return `Enabled ${f.label}: its rules apply to its ${devices(f.device_count)} again`;
        },
      },
      {
        id: 'disable',
        bulk: true,
        label: 'Disable',
        key: 'x',
        when: (f) => f.status === 'enabled',
        destructive: true,
        confirm: (f) => `Disable ${f.label}? Its rules stop applying to its ${devices(f.device_count)}: traffic they block gets through until you enable it again.`,
        run: async (f, ctx) => {
          await updateFirewall(ctx.client, f.id, { status: 'disabled' });
          return `Disabled ${f.label}`;
        },
      },
      { id: 'rules-json', label: 'Edit all rules as JSON', key: 'r', form: rulesJsonForm },
    ],
    empty: 'No firewalls yet. Press c to create one.',
  },
});
