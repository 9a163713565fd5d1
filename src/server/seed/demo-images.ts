import type { Simulation } from '../sim.js';
import type { Store } from '../store.js';
import { registerTags } from '../tagging.js';
import { isoSeconds } from '../../model/time.js';
import { insertPrivateImage } from '../areas/images.js';
import type { DiskRecord, InstanceRecord } from '../areas/instance-common.js';
import { insertStackscript } from '../areas/stackscripts.js';
import { OWNER_ID, type User } from '../auth.js';

const DAY = 86_400_000;

/** Each image is captured from the root disk of the first instance whose label fits, else any instance left. */
const IMAGES = [
  {
    fits: /web|app/,
    label: 'golden-web-2026-10',
    description: 'Debian 12 with nginx, certbot and the app user; captured before the October release',
    daysAgo: 38,
  },
  { fits: /db|sql|postgres/, label: 'db-base', description: 'PostgreSQL 16 tuned for 4 GB plans; no data', daysAgo: 11 },
];

const BOOTSTRAP = `#!/bin/bash
# Hardens a fresh host and installs the team's baseline packages.
# <UDF name="hostname" label="Hostname" example="web-3" />
# <UDF name="admin_user" label="Admin user" example="deploy" default="deploy" />
# <UDF name="environment" label="Environment" oneOf="production,staging,dev" default="staging" />
# <UDF name="packages" label="Extra packages" manyOf="git,htop,jq,tmux" default="git,htop" />
set -euo pipefail
hostnamectl set-hostname "$HOSTNAME"
useradd -m -s /bin/bash "$ADMIN_USER" || true
apt-get update && apt-get install -y ufw fail2ban \${PACKAGES//,/ }
ufw allow OpenSSH && ufw --force enable
echo "ENVIRONMENT=$ENVIRONMENT" >> /etc/environment
`;

const rootDisk = (store: Store, vm: InstanceRecord) => store.all<DiskRecord>('disk', String(vm.id)).find((d) => d.filesystem !== 'swap' && d.status === 'ready');

/**
 * Runs after compute: two private images from the demo instances' root disks,
 * one private provisioning script of the owner, and every tag the instances
 * carry registered.
 */
export function seedImagesDemo(store: Store, _sim: Simulation): void {
  const now = store.clock.now();
  const owner = store.get<User>('user', OWNER_ID)!;
  const vms = store.all<InstanceRecord>('vm');
  const used = new Set<number>();
  const images: string[] = [];
  for (const spec of IMAGES) {
    const candidates = vms.filter((vm) => !used.has(vm.id) && rootDisk(store, vm));
    const vm = candidates.find((v) => spec.fits.test(v.label)) ?? candidates[0];
    if (!vm) break;
    used.add(vm.id);
    const image = insertPrivateImage(store, {
      disk: rootDisk(store, vm)!,
      label: spec.label,
      description: spec.description,
      username: owner.username,
      created: isoSeconds(now - spec.daysAgo * DAY),
    });
    images.push(image.id);
  }
  insertStackscript(
    store,
    owner,
    {
      label: 'team-bootstrap',
      description: 'Baseline hardening: admin user, ufw, fail2ban and chosen tools',
      images: ['vm/debian12', 'vm/ubuntu24.04', ...images.slice(0, 1)],
      script: BOOTSTRAP,
      rev_note: 'add packages field',
    },
    isoSeconds(now - 20 * DAY),
  );
  for (const vm of vms) registerTags(store, vm.tags);
}
