import { defineResource, type CrossRule, type FieldSpec } from './schema.js';
import { email, sshKey } from './formats.js';

export const LISH_AUTH_METHODS = ['password_keys', 'keys_only', 'disabled'] as const;
export const AUTHENTICATION_TYPES = ['password', 'github'] as const;

let knownZones: Set<string> | undefined;
/** IANA shape, so Intl's case-insensitive matching does not let "america/new_york" through. */
const ZONE_SHAPE = /^[A-Z][A-Za-z0-9_+-]*(\/[A-Z][A-Za-z0-9_+-]*)*$/;

/**
 * A time zone Intl knows: its canonical list, UTC, and the aliases it resolves
 * (the spec's own example is US/Eastern, and ICU lists Asia/Calcutta but not Asia/Kolkata).
 */
export function timeZone(v: string): string | null {
  knownZones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  if (knownZones.has(v)) return null;
  if (ZONE_SHAPE.test(v)) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: v });
      return null;
    } catch {
      // not a zone: fall through to the reason
    }
  }
  return `${v} is not a time zone (expected an IANA name such as America/New_York, or UTC)`;
}

const TFA_ENDPOINTS = '/profile/tfa-enable, /profile/tfa-enable-confirm and /profile/tfa-disable';

/** two_factor_auth is shown here but changed only by the two-factor flow, which proves the user holds the secret. */
const twoFactorOnlyByFlow: CrossRule = (body, { current }) =>
  body.two_factor_auth !== undefined && body.two_factor_auth !== current?.two_factor_auth
    ? [{ field: 'two_factor_auth', reason: `two_factor_auth is changed only through ${TFA_ENDPOINTS}` }]
    : [];

/** Deprecated: it cannot be enabled, and once off it stays off. */
const ipWhitelistNeverOn: CrossRule = (body, { current }) =>
  body.ip_whitelist_enabled === true && current?.ip_whitelist_enabled !== true
    ? [{ field: 'ip_whitelist_enabled', reason: 'ip_whitelist_enabled is deprecated and cannot be enabled; once disabled it cannot be re-enabled' }]
    : [];

/** Upstream: users who log in through a third party have no password for the console. */
const thirdPartyNoConsolePassword: CrossRule = (body, { current }) =>
  body.lish_auth_method === 'password_keys' && current?.authentication_type !== undefined && current.authentication_type !== 'password'
    ? [{ field: 'lish_auth_method', reason: 'password_keys cannot be used when the authentication type is third-party' }]
    : [];

export const Profile = defineResource(
  'profile',
  {
    uid: { kind: 'integer', readOnly: true, title: 'User ID' },
    username: { kind: 'string', readOnly: true, title: 'Username' },
    email: { kind: 'string', check: email, title: 'Email' },
    email_notifications: { kind: 'boolean', title: 'Email notifications', help: 'When off, business-critical mail may still be sent' },
    timezone: { kind: 'string', check: timeZone, title: 'Time zone', help: 'A preference for clients; all API times are UTC' },
    authentication_type: { kind: 'enum', values: AUTHENTICATION_TYPES, readOnly: true, title: 'Authentication' },
    authorized_keys: {
      kind: 'array',
      nullable: true,
      items: { kind: 'string', check: sshKey },
      title: 'Console SSH keys',
      help: 'Public keys allowed for the shell console; ignored unless the console method uses keys',
    },
    lish_auth_method: { kind: 'enum', values: LISH_AUTH_METHODS, title: 'Console login method' },
    ip_whitelist_enabled: { kind: 'boolean', deprecated: true, title: 'IP whitelist', help: 'Deprecated: cannot be enabled; once off it stays off' },
    restricted: { kind: 'boolean', title: 'Restricted', help: 'When on, the user is limited by grants' },
    two_factor_auth: { kind: 'boolean', title: 'Two-factor auth', help: 'Turned on and off through the two-factor flow' },
    referrals: {
      kind: 'object',
      readOnly: true,
      title: 'Referrals',
      fields: {
        code: { kind: 'string', readOnly: true },
        url: { kind: 'string', readOnly: true },
        total: { kind: 'integer', readOnly: true },
        completed: { kind: 'integer', readOnly: true },
        pending: { kind: 'integer', readOnly: true },
        credit: { kind: 'number', readOnly: true },
      },
    },
  },
  [twoFactorOnlyByFlow, ipWhitelistNeverOn, thirdPartyNoConsolePassword],
);

const readOnlyTime = (title: string, extra: Partial<FieldSpec> = {}): FieldSpec => ({ kind: 'datetime', readOnly: true, title, ...extra });

export const AuthorizedApp = defineResource('app', {
  id: { kind: 'integer', readOnly: true, title: 'ID' },
  label: { kind: 'string', readOnly: true, title: 'App' },
  scopes: { kind: 'string', readOnly: true, title: 'Scopes' },
  created: readOnlyTime('Authorized', { filterable: true }),
  expiry: readOnlyTime('Expires', { filterable: true, nullable: true }),
  thumbnail_url: { kind: 'string', readOnly: true, title: 'Thumbnail' },
  website: { kind: 'string', readOnly: true, title: 'Website' },
});

export const TrustedDevice = defineResource('device', {
  id: { kind: 'integer', readOnly: true, title: 'ID' },
  created: readOnlyTime('Trusted since'),
  expiry: readOnlyTime('Expires'),
  last_authenticated: readOnlyTime('Last login'),
  last_remote_addr: { kind: 'string', readOnly: true, title: 'Last address' },
  user_agent: { kind: 'string', readOnly: true, title: 'User agent' },
});

export const Login = defineResource('login', {
  id: { kind: 'integer', readOnly: true, title: 'ID' },
  datetime: readOnlyTime('When'),
  ip: { kind: 'string', readOnly: true, title: 'Address' },
  restricted: { kind: 'boolean', readOnly: true, title: 'Restricted' },
  username: { kind: 'string', readOnly: true, title: 'User' },
  status: { kind: 'enum', values: ['successful', 'failed'], readOnly: true, newer: true, title: 'Status' },
});

export const SSH_KEY_LABEL_MAX = 64;

/** The label may be emptied by an update, but a new key starts with 1..64 characters. */
const labelOnCreate: CrossRule = (body, { mode }) =>
  mode === 'create' && body.label === '' ? [{ field: 'label', reason: `label must be 1..${SSH_KEY_LABEL_MAX} characters` }] : [];

export const SSHKey = defineResource(
  'sshkey',
  {
    id: { kind: 'integer', readOnly: true, title: 'ID' },
    label: { kind: 'string', maxLength: SSH_KEY_LABEL_MAX, title: 'Label', help: '1..64 characters; defaults to the key comment' },
    ssh_key: {
      kind: 'string',
      required: true,
      createOnly: true,
      check: sshKey,
      title: 'Public key',
      help: 'Used for root on deployed instances; cannot be changed later',
    },
    created: readOnlyTime('Added'),
  },
  [labelOnCreate],
);

export const TFA_CODE = /^\d{6}$/;

export const TfaConfirm = defineResource('tfa-confirm', {
  tfa_code: {
    kind: 'string',
    required: true,
    check: (v) => (TFA_CODE.test(v) ? null : 'tfa_code must be the 6-digit code from your authenticator app'),
    title: 'Two-factor code',
  },
});

export const PREFERENCES_MAX_BYTES = 64 * 1024;

/** Preferences are any JSON object of at most 64 KiB: the reason a value is not, or null. */
export function preferencesProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'Preferences must be a JSON object';
  if (Buffer.byteLength(JSON.stringify(v)) > PREFERENCES_MAX_BYTES) return 'Preferences must be at most 64 KiB of JSON';
  return null;
}

/** Enabling and disabling take no body; an empty schema rejects any field sent. */
export const NoBody = defineResource('no-body', {});

// ---- grants ----

export type GrantLevel = 'read_only' | 'read_write';

/** Entity kinds that grants cover, by the grants object's key. */
export const GRANT_KINDS = ['vm', 'nodebalancer', 'image', 'stackscript', 'domain', 'longview', 'volume'] as const;
export type GrantKind = (typeof GRANT_KINDS)[number];

export interface GlobalGrants {
  account_access: GrantLevel | null;
  add_domains: boolean;
  add_images: boolean;
  add_vms: boolean;
  add_longview: boolean;
  add_nodebalancers: boolean;
  add_stackscripts: boolean;
  add_volumes: boolean;
  cancel_account: boolean;
  longview_subscription: boolean;
}

/** One entity's grant as stored; the API adds the entity's label. */
export interface GrantEntry {
  id: number | string;
  permissions: GrantLevel | null;
}

/** A restricted user's grants: the global ones and one list per entity kind. */
export type GrantsOf<Entry> = { global: GlobalGrants } & Record<GrantKind, Entry[]>;

