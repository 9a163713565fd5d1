import { GRANT_KINDS, type GlobalGrants, type GrantKind, type GrantLevel, type Grants } from '../../api/profile.js';
import { fit } from '../../components/cells.js';
import type { PaneLine } from './ScrollPane.js';

/** GET /profile/grants as lines to read: what the user may do account-wide, then entity by entity. */

const KIND_NAMES: Record<GrantKind, [string, string]> = {
  vm: ['Instance', 'instances'],
  nodebalancer: ['Load balancer', 'load balancers'],
  image: ['Image', 'images'],
  stackscript: ['Script', 'scripts'],
  domain: ['Domain', 'domains'],
  longview: ['Longview client', 'Longview clients'],
  volume: ['Volume', 'volumes'],
};

const ADD_GRANTS: [keyof GlobalGrants, string][] = [
  ['add_vms', 'instances'],
  ['add_nodebalancers', 'load balancers'],
  ['add_images', 'images'],
  ['add_stackscripts', 'scripts'],
  ['add_domains', 'domains'],
  ['add_longview', 'Longview clients'],
  ['add_volumes', 'volumes'],
];

export const levelColor = (level: GrantLevel | null) => (level === 'read_write' ? 'yellow' : level === 'read_only' ? 'cyan' : undefined);

export const UNRESTRICTED_LINES: PaneLine[] = [
  { text: 'Unrestricted user: no grants apply.', bold: true, color: 'green' },
  { text: '' },
  { text: 'This user may do everything on the account that its token’s scopes allow. Grants limit restricted users only.', dim: true },
];

function globalLines(g: GlobalGrants): PaneLine[] {
  const creates = ADD_GRANTS.filter(([k]) => g[k] === true).map(([, what]) => what);
  return [
    { heading: 'Account-wide' },
    { key: 'Account access', text: g.account_access ?? 'none', color: levelColor(g.account_access) },
    { key: 'May create', text: creates.length ? creates.join(', ') : 'nothing', color: creates.length ? undefined : 'yellow' },
    { key: 'Cancel account', text: g.cancel_account ? 'yes' : 'no' },
    { key: 'Longview subscription', text: g.longview_subscription ? 'may change it' : 'no' },
  ];
}

function entityLines(grants: Grants, width: number): PaneLine[] {
  const rows = GRANT_KINDS.flatMap((kind) => (grants[kind] ?? []).map((e) => ({ kind, ...e })));
  const none = GRANT_KINDS.filter((k) => !(grants[k] ?? []).length).map((k) => KIND_NAMES[k][1]);
  const labelWidth = Math.max(10, width - 16 - 8 - 12 - 3);
  const row = (kind: string, id: string, label: string, perm: string) => `${fit(kind, 16)}${fit(id, 8)}${fit(label, labelWidth)} ${perm}`;
  return [
    { heading: `Entities (${rows.length})` },
    ...(rows.length ? [{ text: row('Kind', 'ID', 'Label', 'Permissions'), bold: true }] : [{ text: 'No grants on any entity.', color: 'yellow' }]),
    ...rows.map((e) => ({ text: row(KIND_NAMES[e.kind][0], String(e.id), e.label, e.permissions ?? 'none'), color: levelColor(e.permissions) })),
    ...(none.length && rows.length ? [{ text: `None on ${none.join(', ')}.`, dim: true }] : []),
  ];
}

export function grantLines(grants: Grants, width: number): PaneLine[] {
  return [
    { text: 'Restricted user: limited to the grants below.', bold: true, color: 'yellow' },
    { text: '' },
    ...globalLines(grants.global),
    { text: '' },
    ...entityLines(grants, width),
  ];
}
