import { randomBytes } from 'node:crypto';
import { ManagedContact, ManagedCredential, ManagedCredentialSecret, ManagedIssue } from '../../model/managed.js';
import { filterableFields, present, type FieldError } from '../../model/schema.js';
import { filterFields } from '../filter.js';
import { defineArea, listPage, mustGet, type Ctx } from '../route.js';
import type { Store } from '../store.js';
import { isoSeconds } from '../../model/time.js';
import { managedStats, storeSecret, type ServiceRecord } from '../monitoring.js';
import { acceptBody, withAccess } from './managed-common.js';
import { managedServiceRoutes } from './managed-services.js';

/** Managed monitoring: contacts, credentials, issues and stats here; services and instance settings in managed-services.ts. */

const RO = 'account:read_only';
const RW = 'account:read_write';

interface CredentialRecord extends Record<string, unknown> {
  id: number;
  label: string;
  last_decrypted: string | null;
  /** The password is not kept at all: nothing in the local service ever reads it back. */
  _username: string | null;
}

function labelTaken(store: Store, label: unknown, selfId?: number): FieldError[] {
  if (typeof label !== 'string') return [];
  const holder = store.getByKey<CredentialRecord>('managed_credential', label);
  return holder && holder.id !== selfId ? [{ field: 'label', reason: `label ${label} is already used by another credential` }] : [];
}

/** Labels are unique; an omitted label gets the first free credential-<id>. */
function defaultLabel(store: Store, id: number): string {
  let label = `credential-${id}`;
  for (let n = 2; store.getByKey('managed_credential', label); n++) label = `credential-${id}-${n}`;
  return label;
}

/** A well-formed ssh-rsa public key blob (e = 65537, a random 2048-bit modulus), made once per store. */
function makeSshKey(): string {
  const field = (b: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(b.length);
    return Buffer.concat([length, b]);
  };
  const modulus = randomBytes(256);
  modulus[0]! |= 0x80;
  const blob = Buffer.concat([field(Buffer.from('ssh-rsa')), field(Buffer.from([1, 0, 1])), field(Buffer.concat([Buffer.from([0]), modulus]))]);
  return `ssh-rsa ${blob.toString('base64')} managedservices@vmcloud`;
}

const contact = (ctx: Ctx) => mustGet(ctx, 'managed_contact', ctx.params.contactId!, 'Contact not found');
const credential = (ctx: Ctx) => mustGet<CredentialRecord>(ctx, 'managed_credential', ctx.params.credentialId!, 'Credential not found');
const showContact = (row: Record<string, unknown>) => present(ManagedContact, row);
const showCredential = (row: Record<string, unknown>) => present(ManagedCredential, row);
const showIssue = (row: Record<string, unknown>) => present(ManagedIssue, row);

type Phone = { primary: string | null; secondary: string | null };

export default defineArea('managed', (r) => {
  // ---- contacts ----
  r.get('/managed/contacts', RO, withAccess('read_only', (ctx) =>
    listPage(ctx, 'managed_contact', { filterable: filterFields(filterableFields(ManagedContact)), present: showContact }),
  ));
  r.post('/managed/contacts', RW, withAccess('read_write', (ctx) => {
    const body = acceptBody(ctx, ManagedContact, 'create');
    const id = ctx.store.nextId('managed_contact');
    const phone = (body.phone ?? {}) as Partial<Phone>;
    const row = {
      id,
      name: body.name ?? null,
      email: body.email ?? null,
      phone: { primary: phone.primary ?? null, secondary: phone.secondary ?? null },
      group: body.group ?? null,
      updated: isoSeconds(ctx.store.clock.now()),
    };
    return showContact(ctx.store.insert('managed_contact', id, row));
  }));
  r.get('/managed/contacts/{contactId}', RW, withAccess('read_only', (ctx) => showContact(contact(ctx))));
  r.put('/managed/contacts/{contactId}', RW, withAccess('read_write', (ctx) => {
    const current = contact(ctx);
    const body = acceptBody(ctx, ManagedContact, 'update', current);
    const phone = { ...(current.phone as Phone), ...((body.phone ?? {}) as Partial<Phone>) };
    return showContact(ctx.store.put('managed_contact', current.id as number, { ...current, ...body, phone, updated: isoSeconds(ctx.store.clock.now()) }));
  }));
  r.delete('/managed/contacts/{contactId}', RW, withAccess('read_write', (ctx) => {
    ctx.store.delete('managed_contact', contact(ctx).id as number);
  }));

  // ---- credentials ----
  r.get('/managed/credentials', RO, withAccess('read_only', (ctx) => listPage(ctx, 'managed_credential', { present: showCredential })));
  r.post('/managed/credentials', RW, withAccess('read_write', (ctx) => {
    const body = acceptBody(ctx, ManagedCredential, 'create', undefined, (v) => labelTaken(ctx.store, v.label));
    const id = ctx.store.nextId('managed_credential');
    const label = (body.label as string | undefined) ?? defaultLabel(ctx.store, id);
    const row: CredentialRecord = {
      id,
      label,
      last_decrypted: null,
      _username: (body.username as string | undefined) ?? null,
    };
    return showCredential(ctx.store.insert('managed_credential', id, row, { key: label }));
  }));
  r.get('/managed/credentials/sshkey', RO, withAccess('read_only', (ctx) => ({ ssh_key: storeSecret(ctx.store, 'managed_ssh_key', makeSshKey) })));
  r.get('/managed/credentials/{credentialId}', RW, withAccess('read_only', (ctx) => showCredential(credential(ctx))));
  r.put('/managed/credentials/{credentialId}', RW, withAccess('read_write', (ctx) => {
    const current = credential(ctx);
    const body = acceptBody(ctx, ManagedCredential, 'update', current, (v) => labelTaken(ctx.store, v.label, current.id));
    const row = ctx.store.put('managed_credential', current.id, { ...current, ...body });
    ctx.store.setKey('managed_credential', current.id, row.label);
    return showCredential(row);
  }));
  r.delete('/managed/credentials/{credentialId}', RW, withAccess('read_write', (ctx) => {
    const { id } = credential(ctx);
    ctx.store.delete('managed_credential', id);
    // Services stop offering a credential that no longer exists.
    for (const s of ctx.store.all<ServiceRecord>('managed_service')) {
      if (s.credentials.includes(id)) ctx.store.put('managed_service', s.id, { ...s, credentials: s.credentials.filter((c) => c !== id) });
    }
  }));
  r.post('/managed/credentials/{credentialId}/update', RW, withAccess('read_write', (ctx) => {
    const current = credential(ctx);
    const body = acceptBody(ctx, ManagedCredentialSecret, 'create');
    ctx.store.put('managed_credential', current.id, {
      ...current,
      _username: (body.username as string | undefined) ?? current._username,
    });
  }));

  // ---- issues (opened by monitoring, read-only here) ----
  r.get('/managed/issues', RO, withAccess('read_only', (ctx) => listPage(ctx, 'managed_issue', { present: showIssue })));
  r.get('/managed/issues/{issueId}', RO, withAccess('read_only', (ctx) => showIssue(mustGet(ctx, 'managed_issue', ctx.params.issueId!, 'Issue not found'))));

  managedServiceRoutes(r);

  r.get('/managed/stats', RO, withAccess('read_only', (ctx) => ({ data: managedStats(ctx.store) })));
});
