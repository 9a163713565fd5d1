import type { Store } from '../store.js';

/** Reference data every account sees: regions, plans, clusters, public images and scripts. */

const REGIONS: [string, string, string[], 'ok' | 'outage'][] = [
  ['us-east', 'us', ['VMs', 'NodeBalancers', 'Block Storage', 'Object Storage', 'Cloud Firewall'], 'ok'],
  ['us-central', 'us', ['VMs', 'NodeBalancers', 'Block Storage', 'Cloud Firewall'], 'ok'],
  ['us-west', 'us', ['VMs', 'NodeBalancers', 'Block Storage', 'Cloud Firewall'], 'ok'],
  ['eu-west', 'uk', ['VMs', 'NodeBalancers', 'Block Storage', 'Cloud Firewall'], 'ok'],
  ['eu-central', 'de', ['VMs', 'NodeBalancers', 'Block Storage', 'Object Storage', 'Cloud Firewall'], 'ok'],
  ['ap-south', 'sg', ['VMs', 'NodeBalancers', 'Object Storage', 'Cloud Firewall'], 'ok'],
  ['ap-northeast', 'jp', ['VMs', 'NodeBalancers'], 'outage'],
];

export const REGION_IDS = REGIONS.map(([id]) => id);

function resolvers(i: number) {
  return {
    ipv4: `203.0.113.${10 + i * 3},203.0.113.${11 + i * 3},203.0.113.${12 + i * 3}`,
    ipv6: `2001:db8:${i}::5,2001:db8:${i}::6`,
  };
}

export interface InstanceTypeRecord extends Record<string, unknown> {
  id: string;
  label: string;
  disk: number;
  memory: number;
  vcpus: number;
  gpus: number;
  transfer: number;
  network_out: number;
  class: string;
}

const TYPES: [id: string, label: string, cls: string, vcpus: number, memoryMb: number, diskMb: number, transferMb: number, netOut: number, monthly: number, gpus: number][] = [
  ['g6-nanode-1', 'Nanode 1GB', 'nanode', 1, 1024, 25600, 1000000, 1000, 5, 0],
  ['g6-standard-1', 'Standard 2GB', 'standard', 1, 2048, 51200, 2000000, 2000, 10, 0],
  ['g6-standard-2', 'Standard 4GB', 'standard', 2, 4096, 81920, 4000000, 4000, 20, 0],
  ['g6-standard-4', 'Standard 8GB', 'standard', 4, 8192, 163840, 5000000, 5000, 40, 0],
  ['g6-standard-6', 'Standard 16GB', 'standard', 6, 16384, 327680, 8000000, 6000, 80, 0],
  ['g6-dedicated-2', 'Dedicated 4GB', 'dedicated', 2, 4096, 81920, 4000000, 4000, 30, 0],
  ['g6-dedicated-4', 'Dedicated 8GB', 'dedicated', 4, 8192, 163840, 5000000, 5000, 60, 0],
  ['g7-highmem-1', 'High Memory 24GB', 'highmem', 2, 24576, 20480, 5000000, 5000, 60, 0],
  ['g1-gpu-rtx6000-1', 'Dedicated 32GB + RTX6000 GPU x1', 'gpu', 8, 32768, 655360, 16000000, 10000, 1000, 1],
];

export const TYPE_IDS = TYPES.map(([id]) => id);

const CLUSTERS: [id: string, region: string][] = [
  ['us-east-1', 'us-east'],
  ['eu-central-1', 'eu-central'],
  ['ap-south-1', 'ap-south'],
];

const IMAGES: [id: string, label: string, vendor: string, sizeMb: number, deprecated: boolean, eol: string | null][] = [
  ['vm/debian12', 'Debian 12', 'Debian', 1300, false, '2028-06-10T00:00:00'],
  ['vm/debian11', 'Debian 11', 'Debian', 1200, false, '2026-08-31T00:00:00'],
  ['vm/ubuntu24.04', 'Ubuntu 24.04 LTS', 'Ubuntu', 2500, false, '2029-04-30T00:00:00'],
  ['vm/ubuntu22.04', 'Ubuntu 22.04 LTS', 'Ubuntu', 2400, false, '2027-04-30T00:00:00'],
  ['vm/alpine3.20', 'Alpine 3.20', 'Alpine', 300, false, '2026-04-01T00:00:00'],
  ['vm/rocky9', 'Rocky Linux 9', 'Rocky', 2000, false, '2032-05-31T00:00:00'],
  ['vm/arch', 'Arch Linux', 'Arch', 1500, false, null],
  ['vm/centos7', 'CentOS 7', 'CentOS', 2200, true, '2024-06-30T00:00:00'],
];

export const PUBLIC_IMAGE_IDS = IMAGES.map(([id]) => id);

const SEEDED = '2024-01-15T09:00:00';

export function seedReference(store: Store): void {
  REGIONS.forEach(([id, country, capabilities, status], i) => {
    store.insert('region', id, { id, country, capabilities, status, resolvers: resolvers(i) }, { ord: i + 1 });
  });
  TYPES.forEach(([id, label, cls, vcpus, memory, disk, transfer, networkOut, monthly, gpus], i) => {
    const hourly = Math.round((monthly / 730) * 1000) / 1000;
    const record: InstanceTypeRecord = {
      id,
      label,
      class: cls,
      vcpus,
      memory,
      disk,
      transfer,
      network_out: networkOut,
      gpus,
      price: { hourly, monthly },
      addons: { backups: { price: { hourly: Math.round(hourly * 250) / 1000, monthly: monthly / 4 } } },
      successor: null,
    };
    store.insert('type', id, record, { ord: i + 1 });
  });
  CLUSTERS.forEach(([id, region], i) => {
    store.insert(
      'cluster',
      id,
      { id, region, status: 'available', domain: `${id}.objects.example.com`, static_site_domain: `website-${id}.objects.example.com` },
      { ord: i + 1 },
    );
  });
  IMAGES.forEach(([id, label, vendor, size, deprecated, eol], i) => {
    store.insert(
      'image',
      id,
      {
        id,
        label,
        description: `${label} official image`,
        created: SEEDED,
        updated: SEEDED,
        created_by: 'vm',
        deprecated,
        is_public: true,
        size,
        type: 'manual',
        expiry: null,
        eol,
        vendor,
      },
      { ord: i + 1 },
    );
  });
  const scripts = [
    {
      label: 'nginx-web-server',
      description: 'Installs nginx and opens ports 80 and 443',
      images: ['vm/debian12', 'vm/ubuntu24.04', 'vm/ubuntu22.04'],
      script: '#!/bin/bash\n# <UDF name="hostname" label="Server hostname" example="web1" />\n# <UDF name="tls" label="Enable TLS" oneOf="yes,no" default="yes" />\napt-get update && apt-get install -y nginx\nhostnamectl set-hostname "$HOSTNAME"\n',
      rev_note: 'initial release',
    },
    {
      label: 'docker-host',
      description: 'Docker engine with a firewall preset',
      images: ['vm/debian12', 'vm/ubuntu24.04', 'vm/rocky9'],
      script: '#!/bin/bash\n# <UDF name="user" label="Admin user" example="admin" />\ncurl -fsSL https://get.docker.example.com | sh\nuseradd -m -G docker "$USER"\n',
      rev_note: 'compose plugin included',
    },
    {
      label: 'postgres-16',
      description: 'PostgreSQL 16 with a tuned configuration',
      images: ['vm/debian12', 'vm/ubuntu22.04'],
      script: '#!/bin/bash\n# <UDF name="db_password" label="Database password" />\napt-get install -y postgresql-16\n',
      rev_note: 'pg16',
    },
  ];
  scripts.forEach((s, i) => {
    const id = String(store.nextId('stackscript', 10001));
    store.insert(
      'stackscript',
      id,
      {
        id,
        ...s,
        username: 'vm',
        user_gravatar_id: 'a445b305abda30ebc766bc7fda037c37',
        deployments_total: 1200 - i * 300,
        deployments_active: 400 - i * 100,
        is_public: true,
        created: SEEDED,
        updated: SEEDED,
        owner_id: null,
      },
      { ord: Number(id) },
    );
  });
}
