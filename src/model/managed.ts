import { defineResource, type CrossRule, type FieldError, type FieldSpec } from './schema.js';
import { charset, email, ipAddress, isPrivateAddress, serviceAddress } from './formats.js';

/** Managed monitoring: contacts, credentials, services, issues, per-instance settings. */

export const SERVICE_STATUSES = ['disabled', 'pending', 'ok', 'problem'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];
export const SERVICE_TYPES = ['url', 'tcp'] as const;

/** Phone numbers: digits with the usual punctuation (spaces, +, -, parentheses, dots). */
export function phoneNumber(v: string): string | null {
  return /^[0-9+\-(). ]{1,32}$/.test(v) && /\d/.test(v) ? null : 'phone numbers may contain only digits, spaces, +, -, parentheses and dots (1..32 characters)';
}

const phone: FieldSpec = { kind: 'string', nullable: true, maxLength: 32, check: phoneNumber };

export const ManagedContact = defineResource('managed_contact', {
  id: { kind: 'integer', readOnly: true, title: 'ID' },
  name: { kind: 'string', title: 'Name', minLength: 2, maxLength: 64, check: charset(/^[A-Za-z0-9_ -]+$/, 'letters, digits, dashes, underscores and spaces') },
  email: { kind: 'string', title: 'Email', help: 'Where alerts about issues are sent', check: email },
  phone: {
    kind: 'object',
    title: 'Phone',
    fields: {
      primary: { ...phone, title: 'Primary phone' },
      secondary: { ...phone, title: 'Secondary phone' },
    },
  },
  group: { kind: 'string', title: 'Group', help: 'For display only; services name a group to consult', nullable: true, filterable: true, minLength: 2, maxLength: 50 },
  updated: { kind: 'datetime', readOnly: true },
});

const labelChars = charset(/^[A-Za-z0-9_ .-]+$/, 'letters, digits, dashes, underscores, spaces and periods');
const username: FieldSpec = { kind: 'string', title: 'Username', writeOnly: true, maxLength: 5000 };
const password: FieldSpec = { kind: 'string', title: 'Password', writeOnly: true, secret: true, required: true };

export const ManagedCredential = defineResource('managed_credential', {
  id: { kind: 'integer', readOnly: true, title: 'ID' },
  label: { kind: 'string', title: 'Label', help: 'Unique on the account', minLength: 2, maxLength: 75, check: labelChars },
  last_decrypted: { kind: 'datetime', readOnly: true, title: 'Last decrypted', nullable: true },
  username: { ...username, createOnly: true },
  password: { ...password, createOnly: true, help: 'Change it later with the password update' },
});

/** Body of POST /managed/credentials/{id}/update. */
export const ManagedCredentialSecret = defineResource('managed_credential_secret', { password, username });

/** The host a service address points at: a URL's hostname, or the host of host:port. */
export function addressHost(address: string): string {
  const fromUrl = /^[a-z][a-z0-9+.-]*:\/\/(\[[^\]]+\]|[^/:?#]+)/i.exec(address);
  const host = fromUrl ? fromUrl[1]! : (/^(\[[^\]]+\]|[^:]+)(:\d+)?$/.exec(address)?.[1] ?? address);
  return host.replace(/^\[(.*)\]$/, '$1');
}

export const isPrivateServiceAddress = (address: string) => isPrivateAddress(addressHost(address));

const isUrl = (address: string) => /^https?:\/\//i.test(address);

/** Checks the merged service: a private address needs a region and a public one must not have one; url services need a URL. */
const serviceRules: CrossRule = (body, { current }) => {
  const merged = { ...current, ...body };
  const errors: FieldError[] = [];
  const { address, region, service_type: type } = merged;
  if (typeof address !== 'string' || serviceAddress(address) !== null) return errors;
  const hasRegion = region !== undefined && region !== null;
  if (isPrivateServiceAddress(address) && !hasRegion) {
    errors.push({ field: 'region', reason: 'region is required when the address is a private IP' });
  } else if (!isPrivateServiceAddress(address) && hasRegion) {
    errors.push({ field: 'region', reason: 'region must not be set unless the address is a private IP' });
  }
  if (type === 'url' && !isUrl(address)) errors.push({ field: 'address', reason: 'a url service needs an http:// or https:// address' });
  return errors;
};

export const ManagedService = defineResource(
  'managed_service',
  {
    id: { kind: 'integer', readOnly: true, title: 'ID' },
    label: { kind: 'string', title: 'Label', required: true, minLength: 3, maxLength: 64, check: labelChars },
    service_type: { kind: 'enum', title: 'Type', help: 'url probes a web address; tcp connects to host:port', values: SERVICE_TYPES, required: true },
    address: { kind: 'string', title: 'Address', help: 'https://… for url, host:port for tcp', required: true, minLength: 3, check: serviceAddress },
    timeout: { kind: 'integer', title: 'Timeout (s)', help: 'Seconds before the service counts as down', required: true, min: 1, max: 255 },
    body: { kind: 'string', title: 'Expected body', help: 'Text the response must contain', nullable: true, maxLength: 100 },
    consultation_group: { kind: 'string', title: 'Contact group', help: 'Group of contacts to notify', maxLength: 50, default: '' },
    credentials: { kind: 'array', title: 'Credentials', help: 'Credential IDs for resolving issues', items: { kind: 'integer', min: 1 }, default: [] },
    notes: { kind: 'string', title: 'Notes', help: 'For support staff', nullable: true },
    region: { kind: 'string', title: 'Region', help: 'Only for a private-IP address, and then required', nullable: true },
    status: { kind: 'enum', values: SERVICE_STATUSES, readOnly: true, title: 'Status' },
    created: { kind: 'datetime', readOnly: true },
    updated: { kind: 'datetime', readOnly: true },
  },
  [serviceRules],
);

export const ManagedIssue = defineResource('managed_issue', {
  id: { kind: 'integer', readOnly: true, title: 'ID' },
  created: { kind: 'datetime', readOnly: true, title: 'Detected' },
  entity: {
    kind: 'object',
    readOnly: true,
    title: 'Ticket',
    fields: {
      id: { kind: 'integer', readOnly: true },
      label: { kind: 'string', readOnly: true },
      type: { kind: 'enum', values: ['ticket'], readOnly: true },
      url: { kind: 'string', readOnly: true },
    },
  },
  services: { kind: 'array', items: { kind: 'integer' }, readOnly: true, title: 'Services' },
});

/** Support may use "any" of the instance's addresses. */
const sshIp = (v: string) => (v === 'any' ? null : ipAddress(v));

export const ManagedVMSettings = defineResource('managed_vm_settings', {
  id: { kind: 'integer', readOnly: true, title: 'Instance ID' },
  label: { kind: 'string', readOnly: true, title: 'Instance' },
  group: { kind: 'string', readOnly: true, deprecated: true, title: 'Group' },
  ssh: {
    kind: 'object',
    title: 'SSH access',
    fields: {
      access: { kind: 'boolean', title: 'Support may log in' },
      user: { kind: 'string', title: 'SSH user', maxLength: 32 },
      ip: { kind: 'string', title: 'SSH address', help: 'An IP address of the instance, or any', check: sshIp },
      port: { kind: 'integer', title: 'SSH port', min: 1, max: 65535 },
    },
  },
});

// ---- bodies of the control interface, which drives monitoring by hand ----

export const IssueOpen = defineResource('managed_issue_open', {
  services: { kind: 'array', title: 'Services', items: { kind: 'integer', min: 1 }, minItems: 1, required: true },
  label: { kind: 'string', title: 'Ticket summary', minLength: 1, maxLength: 128 },
});

export const ServiceStatusChange = defineResource('managed_service_status', {
  status: { kind: 'enum', title: 'Status', values: SERVICE_STATUSES, required: true },
});
