import { defineResource, type FieldSpec } from './schema.js';

/** Account events (GET /account/events; not in the seed, shaped as upstream). */

export const EVENT_STATUSES = ['failed', 'finished', 'notification', 'scheduled', 'started'] as const;

export const EVENT_ENTITY_TYPES = [
  'account', 'backups', 'community', 'disks', 'domain', 'firewall', 'image', 'ipaddress', 'vm', 'longview', 'managed_service',
  'nodebalancer', 'oauth_client', 'profile', 'stackscript', 'tag', 'ticket', 'token', 'user', 'user_ssh_key', 'volume',
] as const;

export const EVENT_ACTIONS = [
  'account_update', 'account_settings_update', 'backups_enable', 'backups_cancel', 'backups_restore', 'community_question_reply',
  'community_like', 'credit_card_updated', 'disk_create', 'disk_delete', 'disk_update', 'disk_duplicate', 'disk_imagize', 'disk_resize',
  'dns_record_create', 'dns_record_delete', 'dns_record_update', 'dns_zone_create', 'dns_zone_delete', 'dns_zone_import', 'dns_zone_update',
  'firewall_create', 'firewall_delete', 'firewall_disable', 'firewall_enable', 'firewall_update', 'firewall_device_add', 'firewall_device_remove',
  'host_reboot', 'image_delete', 'image_update', 'ipaddress_update', 'lassie_reboot', 'lish_boot', 'vm_addip', 'vm_boot', 'vm_clone',
  'vm_create', 'vm_delete', 'vm_update', 'vm_deleteip', 'vm_migrate', 'vm_migrate_datacenter', 'vm_migrate_datacenter_create', 'vm_mutate',
  'vm_mutate_create', 'vm_reboot', 'vm_rebuild', 'vm_resize', 'vm_resize_create', 'vm_shutdown', 'vm_snapshot', 'vm_config_create',
  'vm_config_delete', 'vm_config_update', 'lke_node_create', 'longviewclient_create', 'longviewclient_delete', 'longviewclient_update',
  'managed_disabled', 'managed_enabled', 'managed_service_create', 'managed_service_delete', 'nodebalancer_create', 'nodebalancer_delete',
  'nodebalancer_update', 'nodebalancer_config_create', 'nodebalancer_config_delete', 'nodebalancer_config_update', 'nodebalancer_node_create',
  'nodebalancer_node_delete', 'nodebalancer_node_update', 'oauth_client_create', 'oauth_client_delete', 'oauth_client_secret_reset',
  'oauth_client_update', 'password_reset', 'payment_submitted', 'profile_update', 'stackscript_create', 'stackscript_delete',
  'stackscript_update', 'stackscript_publicize', 'stackscript_revise', 'tag_create', 'tag_delete', 'tfa_disabled', 'tfa_enabled',
  'ticket_attachment_upload', 'ticket_create', 'ticket_update', 'token_create', 'token_delete', 'token_update', 'user_create', 'user_update',
  'user_delete', 'user_ssh_key_add', 'user_ssh_key_delete', 'user_ssh_key_update', 'vlan_attach', 'vlan_detach', 'volume_attach',
  'volume_clone', 'volume_create', 'volume_delete', 'volume_update', 'volume_detach', 'volume_resize',
] as const;

export type EventStatus = (typeof EVENT_STATUSES)[number];

export interface EntityRef {
  id: number | string;
  label: string;
  type: string;
  url: string;
}

/** An event as the API returns it; the client reads it, the service stores it. */
export interface EventRecord {
  id: number;
  action: string;
  created: string;
  duration: number | null;
  entity: EntityRef | null;
  secondary_entity: EntityRef | null;
  percent_complete: number | null;
  rate: string | null;
  read: boolean;
  seen: boolean;
  status: EventStatus;
  time_remaining: string | null;
  username: string;
  message: string | null;
}

/** Filterable upstream (the seed does not cover events). */
export const EVENT_FILTERABLE = ['id', 'action', 'created', 'entity.id', 'entity.type'];

const entityRef = (idKind: 'integer' | 'string'): FieldSpec => ({
  kind: 'object',
  nullable: true,
  readOnly: true,
  fields: {
    id: { kind: idKind },
    label: { kind: 'string' },
    type: { kind: 'string' },
    url: { kind: 'string' },
  },
});

export const AccountEvent = defineResource('event', {
  id: { kind: 'integer', readOnly: true, title: 'ID' },
  action: { kind: 'enum', values: EVENT_ACTIONS, readOnly: true, title: 'Action' },
  created: { kind: 'datetime', readOnly: true, title: 'Created' },
  duration: { kind: 'number', nullable: true, readOnly: true, title: 'Duration (s)' },
  entity: { ...entityRef('integer'), title: 'Entity' },
  secondary_entity: { ...entityRef('string'), title: 'Related' },
  percent_complete: { kind: 'integer', nullable: true, readOnly: true, title: 'Progress (%)' },
  rate: { kind: 'string', nullable: true, readOnly: true },
  read: { kind: 'boolean', readOnly: true, title: 'Read' },
  seen: { kind: 'boolean', readOnly: true, title: 'Seen' },
  status: { kind: 'enum', values: EVENT_STATUSES, readOnly: true, title: 'Status' },
  time_remaining: { kind: 'string', nullable: true, readOnly: true },
  username: { kind: 'string', readOnly: true, title: 'By' },
  message: { kind: 'string', nullable: true, readOnly: true, title: 'Message' },
});

/** Body of POST /__control/events: an event as if an operation had produced it. */
export const EventEmit = defineResource('event_emit', {
  action: { kind: 'enum', title: 'Action', values: EVENT_ACTIONS, required: true },
  entity: {
    kind: 'object',
    title: 'Entity',
    nullable: true,
    required: true,
    fields: {
      id: { kind: 'integer', title: 'Entity ID', required: true },
      label: { kind: 'string', title: 'Entity label', required: true, maxLength: 128 },
      type: { kind: 'enum', title: 'Entity type', values: EVENT_ENTITY_TYPES, required: true },
      url: { kind: 'string', title: 'Entity URL', help: 'Derived from type and id when omitted', maxLength: 256 },
    },
  },
  status: { kind: 'enum', title: 'Status', values: EVENT_STATUSES, default: 'notification' },
  message: { kind: 'string', title: 'Message', nullable: true, maxLength: 1000 },
});

/** Where an entity lives under the API root, for event entity URLs. */
const ENTITY_PATHS: Partial<Record<(typeof EVENT_ENTITY_TYPES)[number], string>> = {
  vm: '/v4/vm/instances',
  nodebalancer: '/v4/nodebalancers',
  image: '/v4/images',
  stackscript: '/v4/vm/stackscripts',
  firewall: '/v4beta/networking/firewalls',
  managed_service: '/v4/managed/services',
  ticket: '/v4/support/tickets',
  token: '/v4/profile/tokens',
  user_ssh_key: '/v4/profile/sshkeys',
  tag: '/v4/tags',
};

export function entityUrl(type: string, id: number | string): string {
  const base = ENTITY_PATHS[type as keyof typeof ENTITY_PATHS];
  return base ? `${base}/${id}` : `/v4/${type}/${id}`;
}

/** The entity type events use for the records listed under this API path (`/vm/instances` → `vm`), if any. */
export function entityTypeOfPath(path: string): string | undefined {
  for (const [type, base] of Object.entries(ENTITY_PATHS)) if (base.replace(/^\/v4(beta)?/, '') === path) return type;
  return undefined;
}
