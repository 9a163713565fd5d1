import { ACCOUNT_WRITE, PROFILE_PATH, updateProfile, type Profile as ProfileRecord } from '../../api/profile.js';
import type { FormSpec } from '../../components/form/types.js';
import { Profile } from '../../model/profile.js';

const LISH_CHOICES = [
  { value: 'password_keys', label: 'password_keys: password or keys' },
  { value: 'keys_only', label: 'keys_only: keys only' },
  { value: 'disabled', label: 'disabled: no console login' },
];

/**
 * The profile's edit form, shaped by the service's rules: two-factor is
 * changed only by its own flow; the IP whitelist is offered only while on
 * (it can be turned off, never on); a restricted user cannot lift its own
 * restriction, so the switch is offered only to unrestricted users, who are
 * asked before restricting themselves.
 */
export function profileForm(p: ProfileRecord): FormSpec<ProfileRecord> {
  const fields = ['email', 'email_notifications', 'timezone', 'lish_auth_method', 'authorized_keys'];
  if (p.ip_whitelist_enabled) fields.push('ip_whitelist_enabled');
  if (!p.restricted) fields.push('restricted');
  return {
    title: `Edit profile: ${p.username}`,
    schema: Profile,
    mode: 'update',
    fields,
    overrides: {
      timezone: { help: 'An IANA name such as America/New_York, Europe/Berlin or UTC; a preference for clients, API times stay UTC' },
      lish_auth_method: { choices: LISH_CHOICES },
      authorized_keys: { help: 'Public keys for the shell console, separated by commas; used when the console method takes keys' },
      ip_whitelist_enabled: { help: 'Deprecated: switch it off here; once off it can never be switched on again' },
      restricted: { help: 'On: limited to grants. You cannot lift your own restriction afterwards' },
    },
    confirm: (body) =>
      body.restricted === true
        ? `Restrict ${p.username}? A restricted user may do only what its grants allow, and cannot lift its own restriction: only an unrestricted user can.`
        : undefined,
    scope: ACCOUNT_WRITE,
    submit: (body, ctx) => updateProfile(ctx.client, body),
    invalidates: () => [PROFILE_PATH],
  };
}
