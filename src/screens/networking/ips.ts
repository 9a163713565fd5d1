import { INSTANCES_LIST, IPS_LIST } from '../../store/lists.js';
import { defineScreen } from '../../app/screen.js';
import { IPS_PATH, setRdns, type IPAddress } from '../../api/ips.js';
import type { LoadIo } from '../../store/data.js';
import { flawOf } from '../../model/response.js';
import { instanceLabels } from './instance-labels.js';
import { IPS_SCREEN } from './ids.js';
import { IPS_AND_VMS_WRITE, IPS_WRITE, allocateForm, assignForm, rdnsForm, shareForm, type IpRow } from './ip-forms.js';

/** Instances list their addresses: moving or adding one changes them. */
const touchesInstances = () => ['/vm/instances'];

/** The addresses with the label of the instance holding each, from the lists the home view counts (cached, no request). */
async function ipRows(io: LoadIo): Promise<IpRow[]> {
  const [ips, labels] = await Promise.all([io.read(IPS_LIST) as Promise<IPAddress[]>, instanceLabels(io)]);
  // An address the client could not read stays as it came, marked.
  return ips.map((ip) => (flawOf(ip) ? (ip as IpRow) : { ...ip, instance: labels.get(ip.vm_id) ?? `#${ip.vm_id}` }));
}

export const ips = defineScreen<IpRow>({
  id: IPS_SCREEN,
  title: 'IP addresses',
  aliases: ['ip', 'addresses'],
  description: 'Public addresses: reverse DNS, allocation, assignment, sharing',
  // The plain list (the overview's addresses read it), not the loader's, which joins the instances.
  count: (_client, data) => data.getState().countList(IPS_LIST),
  list: {
    path: IPS_PATH,
    load: (_client, _p, _data, io) => ipRows(io),
    rowKey: (ip) => ip.address,
    label: (ip) => ip.address,
    writeScope: IPS_WRITE,
    columns: [
      { key: 'address', title: 'Address', flex: 3, identifier: true },
      { key: 'type', title: 'Type', width: 10 },
      { key: 'public', title: 'Public', width: 6, color: (ip) => (ip.public ? undefined : 'yellow') },
      { key: 'region', title: 'Region', width: 10 },
      { key: 'instance', title: 'Instance', flex: 2, identifier: true },
      { key: 'rdns', title: 'Reverse DNS', flex: 3 },
    ],
    detail: {
      sections: [
        { title: 'Address', fields: ['address', 'type', 'public', 'region', 'gateway', 'subnet_mask', 'prefix'] },
        { title: 'Instance', fields: ['instance', 'vm_id'] },
        { title: 'Reverse DNS', fields: ['rdns'] },
      ],
    },
    create: { ...allocateForm, invalidates: touchesInstances },
    edit: rdnsForm,
    actions: [
      {
        id: 'reset-rdns',
        label: 'Reset reverse DNS to the default',
        key: 'r',
        scope: IPS_WRITE,
        when: (ip) => ip.rdns !== null,
        confirm: (ip) => `Reset the reverse DNS of ${ip.address} (now ${ip.rdns}) to the default?`,
        run: async (ip, ctx) => {
          const updated: IPAddress = await setRdns(ctx.client, ip.address, null);
          return `Reverse DNS of ${ip.address} reset to ${updated.rdns ?? 'none'}`;
        },
      },
      { id: 'assign', label: 'Assign (move or swap) addresses…', key: 'm', scope: IPS_AND_VMS_WRITE, when: (ip) => ip.type === 'ipv4', form: assignForm, invalidates: touchesInstances },
      { id: 'share', label: 'Share with another instance…', key: 's', scope: IPS_AND_VMS_WRITE, when: (ip) => ip.type === 'ipv4', form: shareForm, invalidates: touchesInstances },
    ],
    empty: 'No public addresses. Press c to allocate one to an instance.',
  },
});
