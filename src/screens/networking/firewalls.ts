import { FIREWALLS_LIST, devicesList } from '../../store/lists.js';
import type { LoadIo } from '../../store/data.js';
import { flawOf } from '../../model/response.js';
import { dateSort, dateTimeText } from '../../components/dates.js';
import { defineScreen, type DetailSection } from '../../app/screen.js';
import { FIREWALLS_PATH, deleteFirewall, updateFirewall, type Firewall } from '../../api/firewalls.js';
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
/** Its devices, counted when their list is in. */
const devices = (n: number | undefined) => (n === undefined ? 'devices' : plural(n, 'device'));

/** A firewall with how many devices it protects: undefined until its device list is in. */
type FirewallWithDevices = Firewall & { device_count?: number };

/**
 * The firewalls from the list the home view counts and an overview reads
 * (cached, they are drawn at once), then how many devices each protects from
 * the device lists an overview reads too, all side by side.
 */
async function firewallsWithDevices(io: LoadIo): Promise<FirewallWithDevices[]> {
  const fws = (await io.read(FIREWALLS_LIST)) as Firewall[];
  io.show(fws);
  // A firewall the client could not read has no id to read devices by: it stays as it came, marked.
  return Promise.all(fws.map(async (fw) => (flawOf(fw) ? fw : { ...fw, device_count: (await io.read(devicesList(fw.id))).length })));
}

export const firewalls = defineScreen<FirewallWithDevices>({
  id: FIREWALLS_SCREEN,
  title: 'Firewalls',
  aliases: ['fw', 'firewall-list'],
  description: 'Cloud firewalls (beta): rules and protected instances',
  // The plain list (the overview's firewalls read it, the loader below starts from it), not the loader's, which reads every firewall's devices too.
  count: (_client, data) => data.getState().countList(FIREWALLS_LIST),
  list: {
    path: FIREWALLS_PATH,
    xray: (fw) => ({ type: 'firewall', id: String(fw.id) }),
    root: 'beta',
    load: (_client, _p, _data, io) => firewallsWithDevices(io),
    writeScope: FIREWALL_WRITE,
    columns: [
      { key: 'label', title: 'Label', flex: 2, identifier: true },
      { key: 'status', title: 'Status', width: 8, color: (f) => statusColor(f.status) },
      { key: 'rules.inbound', title: 'In', width: 3, align: 'right', format: (f) => String(f.rules.inbound.length), sortValue: (f) => f.rules.inbound.length },
      { key: 'rules.outbound', title: 'Out', width: 3, align: 'right', format: (f) => String(f.rules.outbound.length), sortValue: (f) => f.rules.outbound.length },
      // Counted as each firewall's devices arrive.
      { key: 'device_count', title: 'Devices', width: 7, align: 'right', format: (f) => (f.device_count === undefined ? '…' : String(f.device_count)), sortValue: (f) => f.device_count ?? -1 },
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
