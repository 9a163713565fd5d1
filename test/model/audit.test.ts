import { describe, expect, it } from 'vitest';
import { RULES, audit, nonWebPorts, type AuditInput, type AuditInstance } from '../../src/model/audit.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');

const vm = (over: Partial<AuditInstance> = {}): AuditInstance => ({
  id: 1,
  label: 'web-1',
  status: 'running',
  type: 'g6-standard-2',
  region: 'us-east',
  updated: '2026-11-20T00:00:00',
  watchdog_enabled: true,
  backups: { enabled: true },
  alerts: { cpu: 90, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
  ...over,
});

/** An account every rule passes: a clean firewall guarding the one instance, 2FA on, bounded token, healthy port, limited key, a contact for the group. */
const clean = (): AuditInput => ({
  now: NOW,
  instances: [vm()],
  firewalls: [
    {
      id: 7,
      label: 'fw',
      status: 'enabled',
      rules: { inbound: [{ protocol: 'TCP', ports: '80, 443', addresses: { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] } }, { protocol: 'TCP', ports: '22', addresses: { ipv4: ['203.0.113.0/24'] } }] },
      devices: [{ type: 'vm', id: 1 }],
    },
  ],
  profile: { username: 'ops', two_factor_auth: true, lish_auth_method: 'keys_only' },
  tokens: [{ id: 3, label: 'ci', scopes: 'vms:read_only', expiry: '2027-01-01T00:00:00', in_use: true }],
  balancers: [{ id: 4, label: 'lb', configs: [{ id: 40, port: 443, protocol: 'https', cipher_suite: 'recommended', nodes: [{ mode: 'accept', status: 'UP' }] }] }],
  objectKeys: [{ id: 5, label: 'k', limited: true, bucket_access: [{}] }],
  managed: { services: [{ id: 6, label: 'site', consultation_group: 'oncall' }], contacts: [{ group: 'oncall' }] },
});

const fired = (input: AuditInput, rule: string) => audit(input).filter((f) => f.rule === rule);

/** Each rule: quiet on the clean account, firing on the one change that plants its case. */
const planted: Record<string, (i: AuditInput) => void> = {
  'firewall-open': (i) => i.firewalls![0]!.rules.inbound.push({ protocol: 'TCP', ports: '5432', addresses: { ipv6: ['::/0'] } }),
  'tfa-off': (i) => (i.profile!.two_factor_auth = false),
  'token-unbounded': (i) => i.tokens!.push({ id: 9, label: 'old', scopes: '*', expiry: null, in_use: false }),
  'port-no-node': (i) => (i.balancers![0]!.configs[0]!.nodes = [{ mode: 'accept', status: 'DOWN' }, { mode: 'backup', status: 'UP' }]),
  'vm-no-firewall': (i) => i.instances!.push(vm({ id: 2, label: 'db-1' })),
  'vm-no-backups': (i) => (i.instances![0]!.backups.enabled = false),
  'port-legacy-ciphers': (i) => (i.balancers![0]!.configs[0]!.cipher_suite = 'legacy'),
  'key-unlimited': (i) => i.objectKeys!.push({ id: 8, label: 'all', limited: false, bucket_access: null }),
  'service-no-contact': (i) => (i.managed!.services[0]!.consultation_group = 'nobody'),
  'watchdog-off': (i) => (i.instances![0]!.watchdog_enabled = false),
  'alert-off': (i) => (i.instances![0]!.alerts.cpu = 0),
  'vm-offline-long': (i) => i.instances!.push(vm({ id: 2, label: 'old', status: 'offline', updated: '2026-09-01T00:00:00' })),
  'lish-password': (i) => (i.profile!.lish_auth_method = 'password_keys'),
};

describe('audit rules', () => {
  it('every rule has a planted case here', () => {
    expect(Object.keys(planted).sort()).toEqual(RULES.map((r) => r.id).sort());
  });

  it('the clean account has no finding', () => {
    expect(audit(clean())).toEqual([]);
  });

  for (const rule of RULES) {
    it(`${rule.id} fires on its planted case only`, () => {
      const input = clean();
      planted[rule.id]!(input);
      const hits = fired(input, rule.id);
      expect(hits).toHaveLength(1);
      expect(hits[0]!.severity).toBe(rule.severity);
      expect(audit(input).filter((f) => f.rule !== rule.id && rule.id !== 'vm-no-firewall')).toEqual([]);
    });
  }

  it('marks the token this session uses', () => {
    const input = clean();
    input.tokens = [{ id: 3, label: 'me', scopes: '*', expiry: null, in_use: true }];
    const [f] = fired(input, 'token-unbounded');
    expect(f!.why).toContain('the token this session uses');
  });

  it('a firewall that is disabled protects nothing and exposes nothing', () => {
    const input = clean();
    planted['firewall-open']!(input);
    input.firewalls![0]!.status = 'disabled';
    expect(fired(input, 'firewall-open')).toEqual([]);
    expect(fired(input, 'vm-no-firewall')).toHaveLength(1);
  });

  it('an offline instance changed 10 days ago is not flagged; a shut down one is not running', () => {
    const input = clean();
    input.instances = [vm({ status: 'offline', updated: '2026-11-16T00:00:00' })];
    expect(fired(input, 'vm-offline-long')).toEqual([]);
    expect(fired(input, 'vm-no-backups')).toEqual([]);
  });

  it('sorts high first and leaves unread areas unchecked', () => {
    const input: AuditInput = { now: NOW, instances: [vm({ watchdog_enabled: false, backups: { enabled: false } })], profile: { username: 'u', two_factor_auth: false, lish_auth_method: 'keys_only' } };
    expect(audit(input).map((f) => f.severity)).toEqual(['high', 'medium', 'low']);
  });

  it('a record the rules cannot read skips its rule, said, and the others still run', () => {
    const input = clean();
    input.firewalls![0]!.rules = null as never;
    input.profile!.two_factor_auth = false;
    const found = audit(input);
    expect(found.find((f) => f.rule === 'unchecked')?.why).toMatch(/Inbound rule open to the world.*not checked: the server sent records it cannot read/);
    expect(found.some((f) => f.rule === 'tfa-off')).toBe(true);
  });

  it('reads port lists and ranges', () => {
    expect(nonWebPorts('80,443')).toEqual([]);
    expect(nonWebPorts('22, 80-81')).toEqual(['22', '80-81']);
    expect(nonWebPorts(undefined)).toEqual(['all ports']);
  });
});
