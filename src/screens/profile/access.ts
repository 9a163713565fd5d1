import { defineScreen } from '../../app/screen.js';
import {
  ACCOUNT_WRITE,
  APPS_PATH,
  DEVICES_PATH,
  LOGINS_PATH,
  getApp,
  getDevice,
  getLogin,
  listLogins,
  revokeApp,
  revokeDevice,
  type AuthorizedApp,
  type Login,
  type TrustedDevice,
} from '../../api/profile.js';
import { expiryColor, expirySort, expiryText, scopesText, yesNo } from './format.js';
import { dateText, dateTimeText } from '../../components/dates.js';
import { browserOf } from './user-agent.js';
import { plural } from '../../model/plural.js';
import { LOGINS_WHAT } from './sub-areas.js';

/** What can act, or has acted, as the user: authorized apps, trusted devices, the login history. */

export const apps = defineScreen<AuthorizedApp>({
  id: 'apps',
  title: 'Apps',
  aliases: ['authorized-apps'],
  home: false,
  description: 'Third-party apps authorized to act for you',
  list: {
    path: APPS_PATH,
    writeScope: ACCOUNT_WRITE,
    columns: [
      { key: 'label', title: 'App', flex: 1, identifier: true },
      { key: 'scopes', title: 'Scopes', flex: 1.5, format: (a) => scopesText(a.scopes) },
      { key: 'website', title: 'Website', flex: 1 },
      { key: 'created', title: 'Authorized', width: 10, format: (a) => dateText(a.created, '—'), sortValue: (a) => a.created },
      { key: 'expiry', title: 'Expires', width: 10, format: (a) => expiryText(a.expiry), sortValue: (a) => expirySort(a.expiry), color: (a) => expiryColor(a.expiry) },
    ],
    detail: {
      fetch: (a, ctx) => getApp(ctx.client, a.id),
      sections: [
        { title: 'App', fields: ['label', 'id', 'website', 'thumbnail_url'] },
        { title: 'Access', fields: ['scopes', 'created', 'expiry'] },
      ],
    },
    delete: {
      verb: 'Revoke',
      confirm: (a) => `Revoke "${a.label}"? Its access ends at once: the tokens it holds stop working, and it must be authorized again to act for you.`,
      submit: (a, ctx) => revokeApp(ctx.client, a.id),
    },
    empty: 'No authorized apps.',
  },
});

const deviceName = (d: TrustedDevice) => `${browserOf(d.user_agent)} (${d.last_remote_addr})`;

export const devices = defineScreen<TrustedDevice>({
  id: 'devices',
  title: 'Trusted devices',
  aliases: ['trusted-devices'],
  home: false,
  description: 'Browsers remembered at login',
  list: {
    path: DEVICES_PATH,
    writeScope: ACCOUNT_WRITE,
    label: deviceName,
    columns: [
      { key: 'user_agent', title: 'Browser', flex: 1, identifier: true, format: (d) => browserOf(d.user_agent) },
      { key: 'last_remote_addr', title: 'Last address', width: 15 },
      { key: 'last_authenticated', title: 'Last login', width: 16, format: (d) => dateTimeText(d.last_authenticated, '—'), sortValue: (d) => d.last_authenticated },
      { key: 'expiry', title: 'Expires', width: 10, format: (d) => expiryText(d.expiry), sortValue: (d) => expirySort(d.expiry), color: (d) => expiryColor(d.expiry) },
    ],
    detail: {
      fetch: (d, ctx) => getDevice(ctx.client, d.id),
      sections: [
        { title: 'Device', fields: ['user_agent', 'id', 'last_remote_addr'] },
        { title: 'Session', fields: ['created', 'last_authenticated', 'expiry'] },
      ],
    },
    delete: {
      confirm: (d) => `Stop trusting ${deviceName(d)}? It must log in again, with a two-factor code when two-factor authentication is on.`,
      verb: 'Revoke',
      submit: (d, ctx) => revokeDevice(ctx.client, d.id),
    },
    empty: 'No trusted devices.',
  },
});

const failed = (l: Login) => l.status === 'failed';

/** 4.83.1 lists successful logins only; later releases list failed attempts too, each with its status. */
function loginsText(rows: Login[]): string {
  if (!rows.some((l) => l.status !== undefined)) return 'Successful logins of the last 90 days';
  const failures = rows.filter(failed).length;
  return `Logins of the last 90 days: ${failures ? `${plural(failures, 'failed attempt')}, ${rows.length - failures} successful` : `all ${rows.length} successful`}`;
}

export const logins = defineScreen<Login>({
  id: 'logins',
  title: 'Logins',
  aliases: ['login-history'],
  home: false,
  description: LOGINS_WHAT,
  list: {
    path: LOGINS_PATH,
    load: (client) => listLogins(client),
    label: (l) => `login ${dateTimeText(l.datetime, '—')}`,
    columns: [
      { key: 'datetime', title: 'When (UTC)', width: 16, format: (l) => dateTimeText(l.datetime, '—'), sortValue: (l) => l.datetime },
      // A 4.83.1 login is a successful one: that is all it lists.
      { key: 'status', title: 'Status', width: 10, format: (l) => (failed(l) ? '✗ failed' : (l.status ?? 'successful')), color: (l) => (failed(l) ? 'red' : undefined) },
      { key: 'ip', title: 'Address', flex: 1, identifier: true },
      { key: 'username', title: 'User', flex: 1 },
      { key: 'restricted', title: 'Restricted', width: 10, format: (l) => yesNo(l.restricted), color: (l) => (l.restricted ? 'yellow' : undefined) },
    ],
    detail: {
      fetch: (l, ctx) => getLogin(ctx.client, l.id),
      sections: [{ title: 'Login', fields: ['datetime', 'status', 'ip', 'username', 'restricted', 'id'] }],
    },
    summary: loginsText,
    empty: 'No logins in the last 90 days.',
  },
});
