import { defineResource, type CrossRule } from './schema.js';
import { isoTimestamp, scopeString } from './formats.js';
import { parseApiTime } from './time.js';

/** A token that is already expired at creation would be useless: expiry lies in the future or is null. */
const expiryInFuture: CrossRule = (body, { mode, now }) => {
  const expiry = body.expiry;
  if (mode !== 'create' || typeof expiry !== 'string' || isoTimestamp(expiry) !== null) return [];
  return parseApiTime(expiry) > (now ?? Date.now()) ? [] : [{ field: 'expiry', reason: 'expiry must be in the future' }];
};

export const Token = defineResource(
  'token',
  {
    id: { kind: 'integer', readOnly: true, title: 'ID' },
    label: { kind: 'string', minLength: 1, maxLength: 100, filterable: true, title: 'Label', help: '1..100 characters' },
    scopes: {
      kind: 'string',
      createOnly: true,
      check: scopeString,
      title: 'Scopes',
      help: '* for all, or e.g. "account:read_only vms:read_write"; defaults to the scopes of the token you use, and cannot exceed them',
    },
    created: { kind: 'datetime', readOnly: true, filterable: true, title: 'Created' },
    expiry: {
      kind: 'datetime',
      nullable: true,
      createOnly: true,
      check: isoTimestamp,
      title: 'Expires',
      help: 'YYYY-MM-DDTHH:MM:SS (UTC), in the future; empty means never',
    },
    token: { kind: 'string', readOnly: true, title: 'Token' },
  },
  [expiryInFuture],
);
