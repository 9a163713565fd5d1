/** Rows shaped like the API's instances (all the fields a list page returns), for benchmarks. */
export function syntheticInstances(n: number) {
  const statuses = ['running', 'offline', 'booting', 'provisioning'];
  const regions = ['us-east', 'us-west', 'eu-west', 'ap-south'];
  return Array.from({ length: n }, (_, i) => ({
    id: 1000 + i,
    label: `web-${String(i).padStart(6, '0')}`,
    group: '',
    status: statuses[i % statuses.length],
    created: '2024-01-02T03:04:05',
    updated: '2024-01-02T03:04:05',
    type: 'g6-standard-2',
    region: regions[i % regions.length],
    image: 'vm/debian12',
    ipv4: [`203.0.${(i >> 8) & 255}.${i & 255}`, `192.168.${(i >> 8) & 255}.${i & 255}`],
    ipv6: `2600:3c00::f03c:91ff:fe${(i & 0xffff).toString(16)}/128`,
    hypervisor: 'kvm',
    specs: { disk: 81920, memory: 4096, vcpus: 2, gpus: 0, transfer: 4000 },
    alerts: { cpu: 180, io: 10000, network_in: 10, network_out: 10, transfer_quota: 80 },
    backups: { enabled: i % 3 === 0, available: false, schedule: { day: 'Scheduling', window: 'Scheduling' }, last_successful: null },
    watchdog_enabled: true,
    tags: i % 5 === 0 ? ['prod', 'web'] : [],
    host_uuid: `3a3ddd59d9a78bb8de041391075df44de62bfec${(i % 10).toString()}`,
  }));
}
