import { createHash } from 'node:crypto';
import type { Store } from '../store.js';
import type { Simulation } from '../sim.js';
import type { IpRecord } from '../ipam.js';
import { emitEvent } from '../events.js';
import { entityUrl } from '../../model/events.js';
import { isoSeconds } from '../time.js';
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
  address: (hosts: Hosts) => string;
  timeout: number;
  body?: string;
  consultation_group: string;
  credentials: string[];
  notes?: string;
  region?: (hosts: Hosts) => string;
  createdDaysAgo: number;
  fate: 'ok' | 'disabled' | 'pending' | 'problem';
}

interface Hosts {
  publicIps: string[];
  privateIp: IpRecord | undefined;
}

/** Instance addresses when compute made some; documentation addresses otherwise. */
const publicIp = (hosts: Hosts, i: number) => hosts.publicIps[i % Math.max(1, hosts.publicIps.length)] ?? `203.0.113.${20 + i}`;

const SERVICES: DemoService[] = [
  { label: 'shop frontend', service_type: 'url', address: () => 'https://shop.example.com/health', timeout: 30, body: 'ok', consultation_group: 'on-call', credentials: ['web.deploy'], createdDaysAgo: 63, fate: 'ok' },
  { label: 'api-gateway', service_type: 'url', address: () => 'https://api.example.com/v1/status', timeout: 10, body: '"status":"up"', consultation_group: 'on-call', credentials: ['web.deploy'], notes: 'Behind the eu balancer; restart with systemctl restart gateway', createdDaysAgo: 58, fate: 'problem' },
  { label: 'checkout-api', service_type: 'url', address: (h) => `http://${publicIp(h, 0)}/healthz`, timeout: 15, consultation_group: 'engineering', credentials: [], createdDaysAgo: 41, fate: 'ok' },
  { label: 'postgres-primary', service_type: 'tcp', address: (h) => `${publicIp(h, 1)}:5432`, timeout: 5, consultation_group: 'engineering', credentials: ['prod-db root'], notes: 'Failover runbook: wiki/db-failover', createdDaysAgo: 41, fate: 'problem' },
  { label: 'redis-cache', service_type: 'tcp', address: (h) => `${h.privateIp?.address ?? '192.168.130.12'}:6379`, region: (h) => h.privateIp?.region ?? 'us-east', timeout: 3, consultation_group: 'engineering', credentials: [], createdDaysAgo: 30, fate: 'ok' },
  { label: 'ssh-bastion', service_type: 'tcp', address: (h) => `${publicIp(h, 2)}:22`, timeout: 10, consultation_group: 'escalation', credentials: ['backup-sftp'], createdDaysAgo: 22, fate: 'ok' },
  { label: 'mail-relay', service_type: 'tcp', address: () => 'mail.example.com:587', timeout: 20, consultation_group: 'escalation', credentials: [], notes: 'Paused while the relay moves provider', createdDaysAgo: 17, fate: 'disabled' },
  { label: 'status page', service_type: 'url', address: () => 'https://status.example.com/', timeout: 30, body: 'All systems operational', consultation_group: 'on-call', credentials: ['status page api token'], createdDaysAgo: 0, fate: 'pending' },
];

/** Two issues detected minutes ago, each on one service. */
const ISSUES = [
  { service: 'api-gateway', label: 'api-gateway: HTTP 502 from https://api.example.com/v1/status', minutesAgo: 4 },
  { service: 'postgres-primary', label: 'postgres-primary: connection refused on port 5432', minutesAgo: 17 },
];

const SSH_OVERRIDES = [
  { user: 'deploy', port: 2222 },
  { access: false },
  { user: 'admin', ip: 'any' },
];

const serviceEntity = (s: ServiceRecord) => ({ id: s.id, label: s.label, type: 'managed_service', url: entityUrl('managed_service', s.id) });

export function seedManagedDemo(store: Store, sim: Simulation): void {
  const now = Date.now();

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
        _password_sha256: createHash('sha256').update(`demo:${c.label}`).digest('hex'),
      },
      { key: c.label },
    );
  }

  const ips = store.all<IpRecord>('ip');
  const hosts: Hosts = {
    publicIps: ips.filter((ip) => ip.type === 'ipv4' && ip.public).map((ip) => ip.address),
    privateIp: ips.find((ip) => ip.type === 'ipv4' && !ip.public),
  };

  const services = new Map<string, ServiceRecord>();
  for (const d of SERVICES) {
    const id = store.nextId('managed_service');
    const created = now - d.createdDaysAgo * DAY - 3 * 60 * MINUTE;
    const row = {
      id,
      label: d.label,
      service_type: d.service_type,
      address: d.address(hosts),
      timeout: d.timeout,
      body: d.body ?? null,
      consultation_group: d.consultation_group,
      credentials: d.credentials.map((label) => credentialIds.get(label)!),
      notes: d.notes ?? null,
      region: d.region?.(hosts) ?? null,
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

  store.all<{ id: number } & Record<string, unknown>>('vm').slice(0, SSH_OVERRIDES.length).forEach((vm, i) => {
    const ip = ips.find((a) => a.vm_id === vm.id && a.type === 'ipv4' && a.public)?.address ?? 'any';
    store.insert('managed_ssh', vm.id, { ssh: { access: true, user: 'root', ip, port: 22, ...SSH_OVERRIDES[i] } });
  });

  setStatsSeed(store, 0x5eed_2024);
  startMonitoring(sim);
}
