import { parseApiTime } from './time.js';

/**
 * The account, linted: each rule a small function over the lists the app has
 * cached, giving findings (severity, item, why, fix). The rule table of the
 * docs is RULES; the screen (src/screens/audit) reads the lists and offers the
 * fixes. Nothing here reads the network.
 */

export type Severity = 'high' | 'medium' | 'low' | 'note';

export const SEVERITY_ORDER: Record<Severity, number> = { high: 0, medium: 1, low: 2, note: 3 };

/** The fixes the API offers; the screen turns each into an action. */
export type FixId = 'enable-backups' | 'start-tfa' | 'revoke-token' | 'recommended-ciphers' | 'enable-watchdog';

/** What a finding is about, enough to drill to it and to fix it. */
export type AuditItem =
  | { kind: 'instance'; id: number; label: string; type: string; region: string }
  | { kind: 'firewall'; id: number; label: string }
  | { kind: 'profile'; label: string }
  | { kind: 'token'; id: number; label: string; inUse: boolean }
  | { kind: 'balancer-port'; id: number; balancerId: number; label: string }
  | { kind: 'object-key'; id: number; label: string }
  | { kind: 'managed-service'; id: number; label: string }
  | { kind: 'area'; label: string };

export interface Finding {
  /** Stable across runs: the rule and the item (marks and the selection follow it). */
  key: string;
  rule: string;
  severity: Severity;
  item: AuditItem;
  why: string;
  fix: string;
  /** The API's own fix, when it has one. */
  fixId?: FixId;
}

// The fields the rules read, as the API returns them (src/api types fit these).
export interface AuditInstance {
  id: number;
  label: string;
  status: string;
  type: string;
  region: string;
  updated: string;
  watchdog_enabled: boolean;
  backups: { enabled: boolean };
  alerts: Record<string, number>;
}
export interface AuditFirewallRule {
  protocol: string;
  ports?: string;
  addresses?: { ipv4?: string[]; ipv6?: string[] };
}
export interface AuditFirewall {
  id: number;
  label: string;
  status: string;
  rules: { inbound: AuditFirewallRule[] };
  /** The entities it is attached to (GET …/devices). */
  devices: { type: string; id: number }[];
}
export interface AuditProfile {
  username: string;
  two_factor_auth: boolean;
  lish_auth_method: string;
}
export interface AuditToken {
  id: number;
  label: string;
  scopes: string;
  expiry: string | null;
  in_use: boolean;
}
export interface AuditNode {
  mode: string;
  status: string;
}
export interface AuditPort {
  id: number;
  port: number;
  protocol: string;
  cipher_suite: string;
  nodes: AuditNode[];
}
export interface AuditBalancer {
  id: number;
  label: string;
  configs: AuditPort[];
}
export interface AuditObjectKey {
  id: number;
  label: string;
  limited: boolean;
  bucket_access: unknown[] | null;
}
export interface AuditService {
  id: number;
  label: string;
  consultation_group: string;
}
export interface AuditContact {
  group: string | null;
}

/** An area absent from the input was not read: its rules are skipped, and the screen says why. */
export interface AuditInput {
  now: number;
  instances?: AuditInstance[];
  firewalls?: AuditFirewall[];
  profile?: AuditProfile;
  tokens?: AuditToken[];
  balancers?: AuditBalancer[];
  objectKeys?: AuditObjectKey[];
  managed?: { services: AuditService[]; contacts: AuditContact[] };
}

export interface Rule {
  id: string;
  severity: Severity;
  /** One line each, for the docs' table and the findings. */
  title: string;
  why: string;
  fix: string;
  fixId?: FixId;
  check(input: AuditInput): { item: AuditItem; detail?: string }[];
}

const DAY_MS = 86_400_000;
const OFFLINE_DAYS = 30;
const WEB_PORTS = new Set([80, 443]);
const WORLD = new Set(['0.0.0.0/0', '::/0']);

/** The ports a rule's `ports` opens other than 80 and 443 ("22", "8000-8080"); every port when it names none. */
export function nonWebPorts(ports: string | undefined): string[] {
  if (ports === undefined || ports.trim() === '') return ['all ports'];
  return ports
    .split(',')
    .map((p) => p.trim())
    .filter((p) => {
      const [lo, hi = lo] = p.split('-').map((n) => Number(n));
      // A range of two or more ports always holds one that is neither 80 nor 443.
      return lo !== hi || !WEB_PORTS.has(lo!);
    });
}

const instanceItem = (vm: AuditInstance): AuditItem => ({ kind: 'instance', id: vm.id, label: vm.label, type: vm.type, region: vm.region });
const running = (input: AuditInput) => (input.instances ?? []).filter((vm) => vm.status === 'running');
const portItem = (nb: AuditBalancer, cfg: AuditPort): AuditItem => ({ kind: 'balancer-port', id: cfg.id, balancerId: nb.id, label: `${nb.label}:${cfg.port}` });
const ports = (input: AuditInput) => (input.balancers ?? []).flatMap((nb) => nb.configs.map((cfg) => ({ nb, cfg })));

export const RULES: Rule[] = [
  {
    id: 'firewall-open',
    severity: 'high',
    title: 'Inbound rule open to the world on a port other than 80 and 443',
    why: 'anyone on the internet can reach that port (SSH, databases, anything)',
    fix: "narrow the rule's addresses to those that need it",
    check: (input) =>
      (input.firewalls ?? [])
        .filter((fw) => fw.status === 'enabled')
        .flatMap((fw) => {
          const open = fw.rules.inbound.filter((r) => r.protocol !== 'ICMP' && [...(r.addresses?.ipv4 ?? []), ...(r.addresses?.ipv6 ?? [])].some((a) => WORLD.has(a)));
          const exposed = [...new Set(open.flatMap((r) => nonWebPorts(r.ports).map((p) => `${r.protocol} ${p}`)))];
          return exposed.length ? [{ item: { kind: 'firewall', id: fw.id, label: fw.label } as AuditItem, detail: exposed.join(', ') }] : [];
        }),
  },
  {
    id: 'tfa-off',
    severity: 'high',
    title: 'Two-factor authentication off',
    why: 'a leaked password alone opens the account',
    fix: 'start two-factor set-up',
    fixId: 'start-tfa',
    check: (input) => (input.profile && !input.profile.two_factor_auth ? [{ item: { kind: 'profile', label: input.profile.username } }] : []),
  },
  {
    id: 'token-unbounded',
    severity: 'high',
    title: 'Personal access token with * scopes and no expiry',
    why: 'it can do anything to the account, forever, wherever it leaks',
    fix: 'revoke it; create one with the scopes and expiry it needs',
    fixId: 'revoke-token',
    check: (input) =>
      (input.tokens ?? [])
        .filter((t) => t.scopes.trim() === '*' && t.expiry === null)
        .map((t) => ({ item: { kind: 'token', id: t.id, label: t.label, inUse: t.in_use }, detail: t.in_use ? 'the token this session uses' : undefined })),
  },
  {
    id: 'port-no-node',
    severity: 'high',
    title: 'Load balancer port with no node in accept that is up',
    why: 'every connection to the port fails',
    fix: "bring a node up, or set one to accept, on the port's nodes",
    check: (input) => ports(input).filter(({ cfg }) => !cfg.nodes.some((n) => n.mode === 'accept' && n.status === 'UP')).map(({ nb, cfg }) => ({ item: portItem(nb, cfg) })),
  },
  {
    id: 'vm-no-firewall',
    severity: 'medium',
    title: 'Running instance no enabled firewall protects',
    why: 'every port it listens on is open to the internet',
    fix: 'attach it to a firewall (its devices)',
    check: (input) => {
      if (!input.firewalls) return [];
      const guarded = new Set(input.firewalls.filter((fw) => fw.status === 'enabled').flatMap((fw) => fw.devices.filter((d) => d.type === 'vm').map((d) => d.id)));
      return running(input)
        .filter((vm) => !guarded.has(vm.id))
        .map((vm) => ({ item: instanceItem(vm) }));
    },
  },
  {
    id: 'vm-no-backups',
    severity: 'medium',
    title: 'Running instance without backups',
    why: 'a lost disk is lost for good',
    fix: 'enable backups',
    fixId: 'enable-backups',
    check: (input) =>
      running(input)
        .filter((vm) => !vm.backups.enabled)
        .map((vm) => ({ item: instanceItem(vm) })),
  },
  {
    id: 'port-legacy-ciphers',
    severity: 'medium',
    title: 'Load balancer https port with the legacy cipher suite',
    why: 'clients may connect with ciphers known to be weak',
    fix: 'switch the cipher suite to recommended',
    fixId: 'recommended-ciphers',
    check: (input) => ports(input).filter(({ cfg }) => cfg.protocol === 'https' && cfg.cipher_suite === 'legacy').map(({ nb, cfg }) => ({ item: portItem(nb, cfg) })),
  },
  {
    id: 'key-unlimited',
    severity: 'medium',
    title: 'Object storage access key with unlimited bucket access',
    why: 'it reads and writes every bucket, present and future',
    fix: 'create a key limited to its buckets, then revoke this one',
    check: (input) =>
      (input.objectKeys ?? []).filter((k) => !k.limited || k.bucket_access === null).map((k) => ({ item: { kind: 'object-key', id: k.id, label: k.label } as AuditItem })),
  },
  {
    id: 'service-no-contact',
    severity: 'medium',
    title: 'Managed service whose consultation group has no contact',
    why: 'when it fails, nobody is called',
    fix: "add a contact to its group, or name a group that has one",
    check: (input) => {
      if (!input.managed) return [];
      const groups = new Set(input.managed.contacts.map((c) => c.group).filter((g): g is string => Boolean(g)));
      return input.managed.services
        .filter((s) => !groups.has(s.consultation_group))
        .map((s) => ({ item: { kind: 'managed-service', id: s.id, label: s.label } as AuditItem, detail: s.consultation_group ? `group "${s.consultation_group}"` : 'no group' }));
    },
  },
  {
    id: 'watchdog-off',
    severity: 'low',
    title: 'Watchdog off',
    why: 'a crashed instance stays down until someone boots it',
    fix: 'enable the watchdog',
    fixId: 'enable-watchdog',
    check: (input) => (input.instances ?? []).filter((vm) => !vm.watchdog_enabled).map((vm) => ({ item: instanceItem(vm) })),
  },
  {
    id: 'alert-off',
    severity: 'low',
    title: 'Instance alert set to 0 (off)',
    why: 'that trouble raises no notification',
    fix: 'set a threshold in its alerts (e)',
    check: (input) =>
      (input.instances ?? []).flatMap((vm) => {
        const off = Object.keys(vm.alerts ?? {}).filter((k) => vm.alerts[k] === 0);
        return off.length ? [{ item: instanceItem(vm), detail: off.join(', ') }] : [];
      }),
  },
  {
    id: 'vm-offline-long',
    severity: 'low',
    title: `Instance offline for more than ${OFFLINE_DAYS} days`,
    why: 'it is still billed',
    fix: 'delete it, or boot it if it is still needed',
    check: (input) =>
      (input.instances ?? []).flatMap((vm) => {
        if (vm.status !== 'offline') return [];
        const days = Math.floor((input.now - parseApiTime(vm.updated)) / DAY_MS);
        return days > OFFLINE_DAYS ? [{ item: instanceItem(vm), detail: `unchanged for ${days} days` }] : [];
      }),
  },
  {
    id: 'lish-password',
    severity: 'low',
    title: 'Lish allows passwords',
    why: 'the console can be reached by guessing a password',
    fix: 'set Lish to keys only in the profile (e)',
    check: (input) => (input.profile?.lish_auth_method === 'password_keys' ? [{ item: { kind: 'profile', label: input.profile.username } }] : []),
  },
];

/** What 4.83.1 does not let a client read: said once, never guessed. */
export const LIMITS = [
  { id: 'bucket-acl', title: "Buckets' ACL and CORS", why: 'not checked: the API sets them but does not let a client read them' },
];

/** Every finding of the rules, most severe first, then by rule and item. */
export function audit(input: AuditInput, rules: readonly Rule[] = RULES): Finding[] {
  const findings: Finding[] = [];
  for (const rule of rules) {
    let hits: ReturnType<Rule['check']>;
    try {
      hits = rule.check(input);
    } catch {
      // A record missing what the rule reads (null where the API promises an object): said, and the other rules still run.
      findings.push(unchecked(`rule "${rule.title}"`, 'the server sent records it cannot read', rule.id));
      continue;
    }
    for (const hit of hits) {
      const itemKey = 'id' in hit.item ? `${hit.item.kind}:${hit.item.id}` : hit.item.kind;
      findings.push({
        key: `${rule.id} ${itemKey}`,
        rule: rule.id,
        severity: rule.severity,
        item: hit.item,
        why: hit.detail ? `${rule.title} (${hit.detail}): ${rule.why}` : `${rule.title}: ${rule.why}`,
        fix: rule.fix,
        fixId: rule.fixId,
      });
    }
  }
  // A stable sort: within a severity, the rules' order.
  return findings.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
}

/** A finding for an area the app could not read: its rules did not run. */
export const unchecked = (area: string, reason: string, rules: string): Finding => ({
  key: `unchecked ${area}`,
  rule: 'unchecked',
  severity: 'note',
  item: { kind: 'area', label: area },
  why: `${area} not checked: ${reason}`,
  fix: `rules skipped: ${rules}`,
});

export const limitFindings = (): Finding[] =>
  LIMITS.map((l) => ({ key: `limit ${l.id}`, rule: 'limit', severity: 'note', item: { kind: 'area', label: l.title }, why: `${l.title} ${l.why}`, fix: 'check them where they are set' }));
