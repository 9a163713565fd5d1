import { defineScreen } from '../../app/screen.js';
import { firewallPath, getFirewall, type Firewall } from '../../api/firewalls.js';
import type { ApiClient } from '../../api/client.js';
import type { LoadIo } from '../../store/data.js';
import { FIREWALLS_LIST, devicesList, readableRows } from '../../store/lists.js';
import { firewallSections } from './firewalls.js';
import { directionText } from './ruleset.js';
import { DEVICES_SCREEN, FIREWALL_SCREEN, RULES_SCREEN } from './ids.js';
import { plural } from '../../model/plural.js';

interface Section {
  id: 'rules' | 'devices';
  section: string;
  summary: string;
}

function rulesSummary(fw: Firewall): string {
  // A server may send the rules as null: say so rather than guess what they are.
  const rules: Partial<Firewall['rules']> | null = fw.rules;
  if (!rules) return 'the server sent no rules';
  return `${rules.inbound?.length ?? 0} inbound, ${rules.outbound?.length ?? 0} outbound · ${directionText(rules, 'inbound')} · ${directionText(rules, 'outbound')}`;
}

/** The firewall as the list of firewalls has it (the one a user drills from, cached), else asked for by id. */
async function firewallOf(client: ApiClient, fw: string, io: LoadIo): Promise<Firewall> {
  const listed = (await readableRows<Firewall>(io.read, FIREWALLS_LIST).catch(() => [])).find((f) => String(f.id) === fw);
  return listed ?? getFirewall(client, fw);
}

/** Its rules and devices summed up, from the lists the firewalls list and an overview read (no request when they are cached). */
async function sections(client: ApiClient, fw: string, io: LoadIo): Promise<Section[]> {
  const [firewall, devices] = await Promise.all([firewallOf(client, fw, io), io.read(devicesList(fw)).then((rows) => rows.length)]);
  const state = firewall.status === 'enabled' ? 'enforced' : `not enforced: the firewall is ${firewall.status}`;
  return [
    { id: 'rules', section: 'Rules', summary: rulesSummary(firewall) },
    { id: 'devices', section: 'Devices', summary: `${plural(devices, 'instance')} protected · ${state}` },
  ];
}

/** A firewall: its rules and its devices, each a list of its own (Enter), and the firewall itself (d). */
export const firewall = defineScreen<Section>({
  id: FIREWALL_SCREEN,
  title: 'Firewall',
  params: ['fw'],
  list: {
    path: (p) => firewallPath(p.fw!),
    root: 'beta',
    load: (client, p, _data, io) => sections(client, p.fw!, io),
    rowKey: (s) => s.id,
    // The screens below name themselves; a crumb for the section would say it twice.
    label: () => '',
    columns: [
      { key: 'section', title: 'Section', width: 9 },
      { key: 'summary', title: 'Summary', flex: 1 },
    ],
    detail: { sections: firewallSections, fetch: (_s, ctx) => getFirewall(ctx.client, ctx.params.fw!) },
    drill: (s, p) => ({ screen: s.id === 'rules' ? RULES_SCREEN : DEVICES_SCREEN, params: { fw: p.fw! } }),
  },
});
