import { INSTANCES_PATH, enableBackups, updateInstance } from '../../api/instances.js';
import { configsPath, updateConfig } from '../../api/nodebalancers.js';
import { ACCOUNT_WRITE, PROFILE_PATH, TOKENS_PATH, revokeToken } from '../../api/profile.js';
import { defineScreen, type ActionSpec, type DrillTarget } from '../../app/screen.js';
import { SEVERITY_ORDER, type AuditItem, type Finding, type FixId } from '../../model/audit.js';
import { FIREWALL_SCREEN, RULES_SCREEN } from '../networking/ids.js';
import { CONFIGS_SCREEN, NODES_SCREEN } from '../nodebalancers/ids.js';
import { backupsAddition } from '../instances/instance-actions.js';
import { OVERVIEW_SCREEN } from '../instances/sub-lists.js';
import { loadAudit } from './load.js';

export const AUDIT_SCREEN = 'audit';
/** Not an API path: names the audit's cached list, which every fix refetches. */
export const AUDIT_PATH = 'audit';

const SEVERITY_COLOR = { high: 'red', medium: 'yellow', low: 'cyan', note: 'gray' } as const;

const KIND_NAME: Record<AuditItem['kind'], string> = {
  instance: 'instance',
  firewall: 'firewall',
  profile: 'profile',
  token: 'token',
  'balancer-port': 'LB port',
  'object-key': 'access key',
  'managed-service': 'service',
  area: '',
};

/** The token this session uses is marked first, as :tokens marks it, so no column width hides it. */
const itemText = (f: Finding) => `${KIND_NAME[f.item.kind]} ${f.item.kind === 'token' && f.item.inUse ? '[this] ' : ''}${f.item.label}`.trim();

/** Where Enter goes for a finding: its item, by the way a user would have come. */
function drill(f: Finding): DrillTarget | undefined {
  const item = f.item;
  switch (item.kind) {
    case 'instance':
      return { screen: OVERVIEW_SCREEN, params: { id: String(item.id) } };
    case 'firewall':
      return { via: [{ screen: FIREWALL_SCREEN, params: { fw: String(item.id) }, label: item.label }], screen: RULES_SCREEN, params: { fw: String(item.id) } };
    case 'profile':
      return { screen: f.rule === 'tfa-off' ? '2fa' : 'profile' };
    case 'token':
      return { screen: 'tokens', select: String(item.id) };
    case 'balancer-port': {
      const nb = String(item.balancerId);
      if (f.rule === 'port-no-node') return { via: [{ screen: CONFIGS_SCREEN, params: { nb }, label: item.label.replace(/:\d+$/, '') }], screen: NODES_SCREEN, params: { nb, config: String(item.id) } };
      return { screen: CONFIGS_SCREEN, params: { nb }, select: String(item.id) };
    }
    case 'object-key':
      return { screen: 'obj-keys', select: String(item.id) };
    case 'managed-service':
      return { screen: 'services', select: String(item.id) };
    case 'area':
      return undefined;
  }
}

/** The item a fix acts on, when the finding is of that kind. */
const instanceOf = (f: Finding) => (f.item.kind === 'instance' ? f.item : undefined);
const fixes = (id: FixId) => (f: Finding) => f.fixId === id;

/** The API's fixes, through the same confirm and scope rules as the items' own views; all but two-factor set-up take marks. */
const FIXES: ActionSpec<Finding>[] = [
  {
    id: 'enable-backups',
    label: 'Enable backups',
    key: 'b',
    bulk: true,
    scope: 'vms:read_write',
    when: fixes('enable-backups'),
    confirm: (f) => `Enable the backup service for ${f.item.label}? It is billed monthly; the service picks a schedule.`,
    adds: (f) => {
      const vm = instanceOf(f);
      return vm && backupsAddition(vm);
    },
    run: async (f, ctx) => {
      await enableBackups(ctx.client, instanceOf(f)!.id);
      return `Backups enabled for ${f.item.label}`;
    },
    invalidates: () => [INSTANCES_PATH],
  },
  {
    id: 'enable-watchdog',
    label: 'Enable the watchdog',
    key: 'w',
    bulk: true,
    scope: 'vms:read_write',
    when: fixes('enable-watchdog'),
    run: async (f, ctx) => {
      await updateInstance(ctx.client, instanceOf(f)!.id, { watchdog_enabled: true });
      return `Watchdog enabled for ${f.item.label}`;
    },
    invalidates: () => [INSTANCES_PATH],
  },
  {
    id: 'recommended-ciphers',
    label: 'Switch to the recommended cipher suite',
    key: 'c',
    bulk: true,
    scope: 'nodebalancers:read_write',
    when: fixes('recommended-ciphers'),
    confirm: (f) => `Switch ${f.item.label} to the recommended cipher suite? Clients that only speak legacy ciphers can no longer connect.`,
    run: async (f, ctx) => {
      const port = f.item as Extract<AuditItem, { kind: 'balancer-port' }>;
      await updateConfig(ctx.client, port.balancerId, port.id, { cipher_suite: 'recommended' });
      return `${f.item.label}: recommended cipher suite`;
    },
    invalidates: (f) => [configsPath((f.item as Extract<AuditItem, { kind: 'balancer-port' }>).balancerId)],
  },
  {
    id: 'revoke-token',
    label: 'Revoke the token',
    key: 'x',
    bulk: true,
    scope: ACCOUNT_WRITE,
    destructive: true,
    typeToConfirm: true,
    // The session's own token is revoked from :tokens, where its warning is.
    when: (f) => f.fixId === 'revoke-token' && f.item.kind === 'token' && !f.item.inUse,
    confirm: (f) => `Revoke the token "${f.item.label}"? Every request made with it gets 401 from now on; it cannot be restored.`,
    run: async (f, ctx) => {
      await revokeToken(ctx.client, (f.item as Extract<AuditItem, { kind: 'token' }>).id);
      return `Revoked ${f.item.label}`;
    },
    invalidates: () => [TOKENS_PATH],
  },
  {
    id: 'start-tfa',
    label: 'Start two-factor set-up →',
    key: 't',
    scope: ACCOUNT_WRITE,
    when: fixes('start-tfa'),
    run: async (_f, ctx) => {
      ctx.push('2fa');
      return 'Two-factor: e enables it';
    },
    invalidates: () => [PROFILE_PATH],
  },
];

/** `:audit` as a list: findings, most severe first; Enter goes to the item, a offers its fix. */
export const auditList = defineScreen<Finding>({
  id: AUDIT_SCREEN,
  title: 'Audit',
  list: {
    path: AUDIT_PATH,
    load: (_client, _p, data, io) => loadAudit(data!, Date.now(), { read: io.read }),
    rowKey: (f) => f.key,
    label: (f) => f.item.label,
    columns: [
      { key: 'severity', title: 'Severity', width: 8, color: (f) => SEVERITY_COLOR[f.severity], sortValue: (f) => SEVERITY_ORDER[f.severity] },
      { key: 'item', title: 'Item', flex: 2, identifier: true, format: itemText },
      { key: 'why', title: 'Finding', flex: 5 },
      { key: 'fix', title: 'Fix', flex: 3, format: (f) => (f.fixId ? `a: ${f.fix}` : f.fix) },
    ],
    detail: { sections: [{ title: 'Finding', fields: ['severity', 'rule', 'why', 'fix'] }, { title: 'Item', fields: ['item'] }] },
    drill,
    actions: FIXES,
    // Y copies the finding itself: it is no record of the API.
    subject: (f) => ({ record: f }),
    empty: 'No finding: every rule passes.',
  },
});
