import type { Store } from '../store.js';
import type { Simulation } from '../sim.js';
import type { IpRecord } from '../ipam.js';
import { emitEvent } from '../events.js';
import { entityUrl } from '../../model/events.js';
import { isoSeconds } from '../../model/time.js';
import { awaitFirstCheck, openIssue, setStatsSeed, startMonitoring, type ServiceRecord } from '../monitoring.js';

/**
 * A managed account in use: an on-call rota, stored credentials, services in
 * every state (two with open issues detected minutes ago), access settings on
 * a few instances, and the history of how it got there.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const OWNER = 'demo-owner';

const CONTACTS = [
  { name: 'Maria Alvarez', email: 'maria.alvarez@example.com', phone: { primary: '+1 (215) 555-0142', secondary: '+1 215 555 0199' }, group: 'on-call' },
  { name: 'Jonas Becker', email: 'jonas.becker@example.com', phone: { primary: '+49 30 5550 1234', secondary: null }, group: 'on-call' },
  { name: 'Priya Raman', email: 'priya.raman@example.com', phone: { primary: '+44 20 7946 0321', secondary: '+44 7700 900123' }, group: 'engineering' },
  { name: 'Tomasz Nowak', email: 'tomasz.nowak@example.com', phone: { primary: '+48 22 555 01 87', secondary: null }, group: 'engineering' },
  { name: 'Ops Desk', email: 'ops-desk@example.com', phone: { primary: '1-800-555-0100', secondary: null }, group: 'escalation' },
];

const CREDENTIALS = [
  { label: 'prod-db root', username: 'postgres', decryptedDaysAgo: 12 },
  { label: 'web.deploy', username: 'deploy', decryptedDaysAgo: null },
  { label: 'backup-sftp', username: 'backup', decryptedDaysAgo: null },
  { label: 'status page api token', username: null, decryptedDaysAgo: 41 },
];

interface DemoService {
  label: string;
  service_type: 'url' | 'tcp';
  address: (fleet: Fleet) => string;
  timeout: number;
  body?: string;
  consultation_group: string;
  credentials: string[];
  notes?: string;
  region?: (fleet: Fleet) => string;
  createdDaysAgo: number;
  fate: 'ok' | 'disabled' | 'pending' | 'problem';
}

interface Fleet {
  instances: ({ id: number; label: string } & Record<string, unknown>)[];
  ips: IpRecord[];
}

const instanceNamed = (fleet: Fleet, prefix: string) => fleet.instances.find((vm) => vm.label.startsWith(prefix));
const ipv4Of = (fleet: Fleet, vmId: number | undefined, isPublic: boolean) =>
  fleet.ips.find((ip) => ip.vm_id === vmId && ip.type === 'ipv4' && ip.public === isPublic);

/** The public address of the instance whose label starts with prefix; a documentation address when compute made none. */
const publicIp = (fleet: Fleet, prefix: string, fallback: string) => ipv4Of(fleet, instanceNamed(fleet, prefix)?.id, true)?.address ?? fallback;
const privateIp = (fleet: Fleet, prefix: string) => ipv4Of(fleet, instanceNamed(fleet, prefix)?.id, false);

const SERVICES: DemoService[] = [
  { label: 'shop frontend', service_type: 'url', address: () => 'https://shop.example.com/health', timeout: 30, body: 'ok', consultation_group: 'on-call', credentials: ['web.deploy'], createdDaysAgo: 63, fate: 'ok' },
  { label: 'api-gateway', service_type: 'url', address: () => 'https://api.example.com/v1/status', timeout: 10, body: '"status":"up"', consultation_group: 'on-call', credentials: ['web.deploy'], notes: 'Behind the eu balancer; restart with systemctl restart gateway', createdDaysAgo: 58, fate: 'problem' },
  { label: 'checkout-api', service_type: 'url', address: (f) => `http://${publicIp(f, 'api-1', '203.0.113.20')}/healthz`, timeout: 15, consultation_group: 'engineering', credentials: [], createdDaysAgo: 41, fate: 'ok' },
  { label: 'postgres-primary', service_type: 'tcp', address: (f) => `${publicIp(f, 'db-primary', '203.0.113.21')}:5432`, timeout: 5, consultation_group: 'engineering', credentials: ['prod-db root'], notes: 'Failover runbook: wiki/db-failover', createdDaysAgo: 41, fate: 'problem' },
  { label: 'redis-cache', service_type: 'tcp', address: (f) => `${privateIp(f, 'cache')?.address ?? '192.168.130.12'}:6379`, region: (f) => privateIp(f, 'cache')?.region ?? 'us-east', timeout: 3, consultation_group: 'engineering', credentials: [], createdDaysAgo: 30, fate: 'ok' },
  { label: 'ssh-bastion', service_type: 'tcp', address: (f) => `${publicIp(f, 'bastion', '203.0.113.22')}:22`, timeout: 10, consultation_group: 'escalation', credentials: ['backup-sftp'], createdDaysAgo: 22, fate: 'ok' },
  { label: 'mail-relay', service_type: 'tcp', address: () => 'mail.example.com:587', timeout: 20, consultation_group: 'escalation', credentials: [], notes: 'Paused while the relay moves provider', createdDaysAgo: 17, fate: 'disabled' },
  { label: 'status page', service_type: 'url', address: () => 'https://status.example.com/', timeout: 30, body: 'All systems operational', consultation_group: 'on-call', credentials: ['status page api token'], createdDaysAgo: 0, fate: 'pending' },
];

/** Two issues detected minutes ago, each on one service. */
const ISSUES = [
  { service: 'api-gateway', label: 'api-gateway: HTTP 502 from https://api.example.com/v1/status', minutesAgo: 4 },
  { service: 'postgres-primary', label: 'postgres-primary: connection refused on port 5432', minutesAgo: 17 },
];

/** Access settings changed on the instances these name (or the first ones, when compute made others). */
const SSH_OVERRIDES = [
  { instance: 'db-primary', ssh: { user: 'deploy', port: 2222 } },
  { instance: 'bastion', ssh: { user: 'admin', ip: 'any' } },
  { instance: 'legacy', ssh: { access: false } },
];

const serviceEntity = (s: ServiceRecord) => ({ id: s.id, label: s.label, type: 'managed_service', url: entityUrl('managed_service', s.id) });

export function seedManagedDemo(store: Store, sim: Simulation): void {
  const now = store.clock.now();

  CONTACTS.forEach((c, i) => {
    const id = store.nextId('managed_contact');
    store.insert('managed_contact', id, { id, ...c, updated: isoSeconds(now - (70 - i * 9) * DAY) });
  });

  const credentialIds = new Map<string, number>();
  for (const c of CREDENTIALS) {
    const id = store.nextId('managed_credential');
    credentialIds.set(c.label, id);
    store.insert(
      'managed_credential',
      id,
      {
        id,
        label: c.label,
        last_decrypted: c.decryptedDaysAgo === null ? null : isoSeconds(now - c.decryptedDaysAgo * DAY),
        _username: c.username,
      },
      { key: c.label },
    );
  }

  const fleet: Fleet = { instances: store.all('vm'), ips: store.all<IpRecord>('ip') };

  const services = new Map<string, ServiceRecord>();
  for (const d of SERVICES) {
    const id = store.nextId('managed_service');
    const created = now - d.createdDaysAgo * DAY - 3 * 60 * MINUTE;
    const row = {
      id,
      label: d.label,
      service_type: d.service_type,
      address: d.address(fleet),
      timeout: d.timeout,
      body: d.body ?? null,
      consultation_group: d.consultation_group,
      credentials: d.credentials.map((label) => credentialIds.get(label)!),
      notes: d.notes ?? null,
      region: d.region?.(fleet) ?? null,
      status: d.fate === 'disabled' ? 'disabled' : 'ok',
      created: isoSeconds(created),
      updated: isoSeconds(created),
    } as ServiceRecord;
    services.set(d.label, store.insert('managed_service', id, row));
    emitEvent(store, { action: 'managed_service_create', entity: serviceEntity(row), username: OWNER }, created);
    if (d.fate === 'disabled') emitEvent(store, { action: 'managed_disabled', entity: serviceEntity(row), username: OWNER }, now - 2 * DAY);
    // The newest service is still waiting for its first check.
    if (d.fate === 'pending') awaitFirstCheck(store, sim, row, 10 * 60);
  }

  for (const issue of [...ISSUES].sort((a, b) => b.minutesAgo - a.minutesAgo)) {
    openIssue(store, [services.get(issue.service)!.id], { label: issue.label, now: now - issue.minutesAgo * MINUTE });
  }

  const overridden = new Set<number>();
  for (const o of SSH_OVERRIDES) {
    const vm = instanceNamed(fleet, o.instance) ?? fleet.instances.find((v) => !overridden.has(v.id));
    if (!vm || overridden.has(vm.id)) continue;
    overridden.add(vm.id);
    const ip = ipv4Of(fleet, vm.id, true)?.address ?? 'any';
    store.insert('managed_ssh', vm.id, { ssh: { access: true, user: 'root', ip, port: 22, ...o.ssh } });
  }

  setStatsSeed(store, 0x5eed_2024);
  startMonitoring(sim);
}
