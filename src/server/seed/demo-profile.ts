import type { Store, Row } from '../store.js';
import type { Simulation } from '../sim.js';
import { emptyGrants, issueToken, newTokenValue, OWNER_ID, RESTRICTED_ID, type GrantEntry, type Level, type User } from '../auth.js';
import { isoSeconds } from '../../model/time.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;

const OWNER_KEYS: [string, string][] = [
  ['owner laptop', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKRPkNJHGt48HmaTyFyyGPCaRhcS7l9jT9HWjdCmTn18 owner@laptop'],
  [
    'ci deploy key',
    'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7mOVS7yTCATzwuctCt0g2trtKFWrpImaVyBTiPZp3xpClmLBLomB4c4ZIOrOS1As1ITFx4oSvmaUBZrbutI1d+yt6qUU2DL+DsHzPNxLb/+jx6roi1stwmYWgnkry5oIeryhMPeH522ueQE4qfs4yp5Prwq7O0tHWXavCfQ7AejJdJLo9LXIfVAHZhyfxAoKBP0tqtNMd8xL07gBUzvkiZivAaPYEiSOimo9hlg5n7xAsGWpZSmjaZjPLcMCaOfgtPyEHEryW0tHm4FFsp71ubLgGxppbpZv+63QQkQ9q70kX1Jg8JBFyB0RByWHWJFwlccnrtwxhleKdJUJppdNT ci-deploy@build',
  ],
];

/** label, scopes, days since creation, days until expiry (null: never). */
const OWNER_TOKENS: [string, string, number, number | null][] = [
  ['monitoring-readonly', 'vms:read_only nodebalancers:read_only ips:read_only', 120, null],
  ['terraform-laptop', '*', 53, 7],
  ['ci-deploy', 'vms:read_write images:read_write stackscripts:read_only', 30, 90],
];

const APPS = [
  {
    label: 'Terraform Cloud',
    client: 'oauth-terraform-cloud',
    scopes: 'vms:read_write nodebalancers:read_write firewall:read_write ips:read_write',
    website: 'https://terraform.example.com',
    daysAgo: 41,
    expiresInDays: null,
  },
  {
    label: 'Grafana Monitoring',
    client: 'oauth-grafana',
    scopes: 'vms:read_only nodebalancers:read_only',
    website: 'https://grafana.example.com',
    daysAgo: 9,
    expiresInDays: 21,
  },
];

/** days since trusted, days until expiry, days since last login, address, browser. */
const DEVICES: [number, number, number, string, string][] = [
  [12, 18, 1, '203.0.113.24', 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0'],
  [28, 2, 6, '198.51.100.77', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'],
];

const OWNER_IPS = ['203.0.113.24', '198.51.100.77', '192.0.2.140'];
/** Days ago of the owner's logins over the last two months, oldest first, and which address each came from. */
const OWNER_LOGIN_DAYS = [58, 51, 44, 38, 33, 27, 22, 19, 15, 11, 8, 5, 4, 2, 1];
const OWNER_LOGIN_IP = [0, 0, 1, 0, 0, 2, 0, 1, 0, 0, 1, 0, 2, 0, 0];
const OPS_LOGIN_DAYS = [26, 12, 3];

/** Runs last: the restricted user's grants point at instances, balancers, images and scripts made by earlier steps. */
export function seedProfileDemo(store: Store, _sim: Simulation): void {
  const now = store.clock.now();
  const ago = (ms: number) => isoSeconds(now - ms);
  const owner = String(OWNER_ID);

  OWNER_KEYS.forEach(([label, key], i) => {
    const id = store.nextId('sshkey');
    store.insert('sshkey', id, { id, label, ssh_key: key, created: ago((200 - i * 90) * DAY) }, { parent: owner });
  });

  // Values are random and never shown again, as for any token: the demo needs the records, not the secrets.
  for (const [label, scopes, daysAgo, expiresIn] of OWNER_TOKENS) {
    const t = issueToken(store, newTokenValue(), { user_id: OWNER_ID, label, scopes, expiry: expiresIn === null ? null : ago(-expiresIn * DAY) });
    store.put('token', t.id, { ...t, created: ago(daysAgo * DAY) });
  }

  for (const app of APPS) {
    const id = store.nextId('app');
    const expiry = app.expiresInDays === null ? null : ago(-app.expiresInDays * DAY);
    const { label, scopes, website, client } = app;
    store.insert('app', id, { id, label, scopes, created: ago(app.daysAgo * DAY), expiry, thumbnail_url: `${website}/logo.png`, website, _client: client }, { parent: owner });
    issueToken(store, newTokenValue(), { user_id: OWNER_ID, label, scopes, expiry, client });
  }

  for (const [since, until, last, addr, agent] of DEVICES) {
    const id = store.nextId('device');
    store.insert(
      'device',
      id,
      { id, created: ago(since * DAY), expiry: ago(-until * DAY), last_authenticated: ago(last * DAY + 3 * HOUR), last_remote_addr: addr, user_agent: agent },
      { parent: owner },
    );
  }

  const ownerUser = store.get<User>('user', OWNER_ID)!;
  const opsUser = store.get<User>('user', RESTRICTED_ID)!;
  addLogins(store, ownerUser, OWNER_LOGIN_DAYS, (i) => OWNER_IPS[OWNER_LOGIN_IP[i]!]!, now);
  addLogins(store, opsUser, OPS_LOGIN_DAYS, (i) => `198.51.100.${30 + i}`, now);

  store.put('user', OWNER_ID, {
    ...ownerUser,
    timezone: 'America/New_York',
    authorized_keys: [OWNER_KEYS[0]![1]],
    preferences: { personal: { theme: 'dark', sortKeys: { instances: 'label', events: '-created' }, refreshSeconds: 10, showBetaFeatures: true } },
  });
  store.put('user', RESTRICTED_ID, { ...opsUser, grants: opsGrants(store) });
}

function addLogins(store: Store, user: User, daysAgo: number[], ip: (i: number) => string, now: number): void {
  daysAgo.forEach((days, i) => {
    const id = store.nextId('login');
    const datetime = isoSeconds(now - days * DAY - ((i * 5) % 11) * HOUR);
    store.insert('login', id, { id, datetime, ip: ip(i), restricted: user.restricted, username: user.username }, { parent: String(user.id) });
  });
}

const entries = (rows: Row[], permissions: Level): GrantEntry[] => rows.map((row) => ({ id: row.id as number | string, permissions }));

/** An operator: reads the account, runs three instances, watches two more and one balancer, may not create anything. */
function opsGrants(store: Store) {
  const grants = emptyGrants();
  grants.global.account_access = 'read_only';
  const vms = store.all('vm');
  grants.vm = [...entries(vms.slice(0, 3), 'read_write'), ...entries(vms.slice(3, 5), 'read_only')];
  grants.nodebalancer = entries(store.all('nodebalancer').slice(0, 1), 'read_only');
  grants.image = entries(store.all('image').filter((i) => !i.is_public).slice(0, 1), 'read_only');
  grants.stackscript = entries(store.all('stackscript').filter((s) => !s.is_public || s.username !== 'vm').slice(0, 1), 'read_write');
  return grants;
}
