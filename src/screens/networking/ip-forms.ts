import { getInstance, listInstances } from '../../api/instances.js';
import { regionChoices } from '../../api/regions.js';
import {
  allocateIp,
  assignIps,
  instanceChoices,
  setRdns,
  shareIps,
  type Assignment,
  type IPAddress,
} from '../../api/ips.js';
import type { ApiClient } from '../../api/client.js';
import type { ChoiceScope, FormSpec } from '../../components/form/types.js';
import { IPAddress as IpSchema, IpAllocation, IpAssignment, IpShare } from '../../model/ips.js';
import type { FieldSpec } from '../../model/schema.js';
import { onFormFields, prefixFields, shapedSchema, type FormShape } from './form-shape.js';

/** The address endpoints that move addresses between instances need both scopes. */
export const IPS_AND_VMS_WRITE = 'ips:read_write vms:read_write';
export const IPS_WRITE = 'ips:read_write';

export type IpRow = IPAddress & { instance: string };

export const allocateForm: FormSpec<IpRow> = {
  title: 'Allocate an IPv4 address',
  schema: IpAllocation,
  fields: ['vm_id', 'public', 'type'],
  overrides: {
    vm_id: { title: 'Instance', choices: (client) => instanceChoices(client) },
    public: { default: true, help: 'Public, or private (at most one per instance; private addresses are not listed here)' },
    type: { hidden: true },
  },
  submit: async (body, ctx) => {
    const ip = await allocateIp(ctx.client, body as Parameters<typeof allocateIp>[1]);
    // The message names the instance; the address is allocated whether or not its name can be fetched.
    const vm = await getInstance(ctx.client, ip.vm_id).catch(() => undefined);
    return { ...ip, instance: vm?.label ?? `instance ${ip.vm_id}` };
  },
  done: (res) => {
    const ip = res as IpRow;
    return `Allocated ${ip.address} (${ip.public ? 'public' : 'private'}) to ${ip.instance}${ip.public ? '' : '; private addresses are not listed here'}`;
  },
  scope: IPS_AND_VMS_WRITE,
};

export const rdnsForm: FormSpec<IpRow> = {
  schema: IpSchema,
  fields: ['rdns'],
  overrides: { rdns: { help: 'A host name whose forward DNS already points here; empty resets to the default (or the action "Reset")' } },
  // The service refuses it too; the key says why at once.
  refuse: (ip) => (ip.type === 'ipv6/range' ? `${ip.address}/${ip.prefix} is a range: reverse DNS is set on single addresses` : undefined),
  submit: (body, ctx, ip) => setRdns(ctx.client, ip!.address, (body.rdns as string | null | undefined) ?? null),
  done: (res, ip) => `Reverse DNS of ${ip!.address}: ${(res as IPAddress).rdns ?? 'none'}`,
  scope: IPS_WRITE,
};

const regionOf = (scope: ChoiceScope) => (scope.row as IpRow | undefined)?.region;

/** Instances in the address's region (assignment and sharing stay within one region). */
const instancesInRegion = (client: ApiClient, scope: ChoiceScope) => instanceChoices(client, (vm) => vm.region === (regionOf(scope) ?? vm.region));

/** IPv4 addresses of the region's instances, labelled with who holds them. */
async function regionAddresses(client: ApiClient, scope: ChoiceScope) {
  const region = regionOf(scope);
  return (await listInstances(client))
    .filter((vm) => vm.region === (region ?? vm.region))
    .flatMap((vm) => vm.ipv4.map((address) => ({ value: address, label: `${address}  (${vm.label})` })));
}

/** Three address → instance pairs: enough to move one address or swap a few between instances. */
const PAIRS = 3;
const pairIndexes = Array.from({ length: PAIRS }, (_, i) => i + 1);
const item = IpAssignment.fields.assignments!.items!.fields!;

const pairFields: Record<string, FieldSpec> = Object.fromEntries(
  pairIndexes.flatMap((n) => [
    [`address_${n}`, { ...item.address!, required: n === 1, title: `Address ${n}` }],
    [`vm_id_${n}`, { ...item.vm_id!, required: n === 1, title: `To instance ${n}` }],
  ]),
);

/** The pairs the user filled, in order, with the pair number each came from. */
function filledPairs(v: Record<string, unknown>): { n: number; pair: Partial<Assignment> }[] {
  return pairIndexes
    .filter((n) => v[`address_${n}`] !== undefined || v[`vm_id_${n}`] !== undefined)
    .map((n) => ({ n, pair: { address: v[`address_${n}`] as string | undefined, vm_id: v[`vm_id_${n}`] as number | undefined } }));
}

/** assignments.1.vm_id is the second filled pair's instance: the field of whichever pair that was. */
function assignFieldOf(path: string, values: Record<string, unknown>): string | undefined {
  const m = /^assignments\.(\d+)\.(address|vm_id)/.exec(path);
  const pair = m ? filledPairs(values)[Number(m[1])] : undefined;
  if (pair) return `${m![2]}_${pair.n}`;
  return path === 'region' ? 'region' : path.startsWith('assignments') ? 'address_1' : undefined;
}

const assignShape: FormShape = {
  name: 'ip_assignment_form',
  fields: { region: IpAssignment.fields.region!, ...pairFields },
  target: IpAssignment,
  toBody: (v) => ({ region: v.region, assignments: filledPairs(v).map((p) => p.pair) }),
  fieldOf: assignFieldOf,
};

export const assignForm: FormSpec<IpRow> = {
  title: 'Assign IPv4 addresses to instances',
  schema: shapedSchema(assignShape),
  fields: ['region', ...pairIndexes.flatMap((n) => [`address_${n}`, `vm_id_${n}`])],
  overrides: {
    region: { choices: (client) => regionChoices(client) },
    ...Object.fromEntries(pairIndexes.map((n) => [`address_${n}`, { choices: regionAddresses }])),
    ...Object.fromEntries(pairIndexes.map((n) => [`vm_id_${n}`, { choices: instancesInRegion }])),
  },
  initial: (ip) => ({ region: ip!.region, address_1: ip!.address }),
  confirm: (body) =>
    `Move ${filledPairs(body)
      .map((p) => `${p.pair.address} to instance ${p.pair.vm_id}`)
      .join(', ')}? Every instance involved must keep a public IPv4; the instances need a restart for the change to take effect.`,
  submit: async (body, ctx) => {
    try {
      return await assignIps(ctx.client, assignShape.toBody(body) as { region: string; assignments: Assignment[] });
    } catch (err) {
      throw onFormFields(err, (path) => assignFieldOf(path, body));
    }
  },
  done: () => 'Addresses assigned',
  scope: IPS_AND_VMS_WRITE,
};

/** An empty list is an answer here (stop sharing), so the form sends [] where the model requires the field. */
const shareShape: FormShape = {
  name: 'ip_share_form',
  fields: { vm_id: IpShare.fields.vm_id!, ips: { ...IpShare.fields.ips!, required: false } },
  target: IpShare,
  toBody: (v) => ({ vm_id: v.vm_id, ips: v.ips ?? [] }),
  fieldOf: prefixFields([
    ['vm_id', 'vm_id'],
    ['ips', 'ips'],
  ]),
};

export const shareForm: FormSpec<IpRow> = {
  title: 'Share IPv4 addresses with an instance',
  schema: shapedSchema(shareShape),
  fields: ['vm_id', 'ips'],
  overrides: {
    vm_id: { title: 'Instance', choices: instancesInRegion },
    ips: { choices: regionAddresses, help: 'The instance may bring these up too (failover); the list replaces what it shares now, empty stops sharing' },
  },
  initial: (ip) => ({ ips: [ip!.address] }),
  confirm: (body) => {
    const ips = (body.ips as string[] | undefined) ?? [];
    return ips.length
      ? `Share ${ips.join(', ')} with instance ${String(body.vm_id)}? This replaces every address shared with it so far.`
      : `Stop sharing all addresses with instance ${String(body.vm_id)}?`;
  },
  submit: (body, ctx) => shareIps(ctx.client, shareShape.toBody(body) as { vm_id: number; ips: string[] }),
  done: () => 'Sharing updated',
  scope: IPS_AND_VMS_WRITE,
};
