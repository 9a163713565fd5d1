import { passwordStrength, sshKey } from './formats.js';
import type { CrossRule, FieldError, FieldSpec } from './schema.js';

/**
 * What deploying an image onto a disk takes. Instance create and disk create
 * share these fields and their cross-field rules (seed: Compute instance and
 * Disk create tables).
 */
export const DEPLOY_FIELDS: Record<string, FieldSpec> = {
  image: { kind: 'string', title: 'Image', help: 'vm/… for official images, private/… for your own', createOnly: true, minLength: 1 },
  root_pass: {
    kind: 'string',
    title: 'Root password',
    help: 'Required with an image; must pass the strength check',
    writeOnly: true,
    createOnly: true,
    secret: true,
    check: passwordStrength,
  },
  authorized_keys: {
    kind: 'array',
    title: 'Root SSH keys',
    help: 'Public keys for root; only with an image',
    writeOnly: true,
    createOnly: true,
    items: { kind: 'string', check: sshKey },
  },
  authorized_users: {
    kind: 'array',
    title: 'Authorized users',
    help: "Usernames whose profile SSH keys are added for root; only with an image",
    writeOnly: true,
    createOnly: true,
    items: { kind: 'string', minLength: 1 },
  },
  stackscript_id: { kind: 'integer', title: 'StackScript', help: 'Needs an image the script supports', writeOnly: true, createOnly: true, min: 1 },
  stackscript_data: { kind: 'json', title: 'StackScript answers', help: "Answers to the script's user-defined fields", writeOnly: true, createOnly: true },
};

const present = (body: Record<string, unknown>, key: string) => body[key] !== undefined && body[key] !== null;

/** A create-time field that makes sense only next to another one. */
export const onlyWith = (field: string, needs: string, what = needs): CrossRule => (body, { mode }) =>
  mode === 'create' && present(body, field) && !present(body, needs) ? [{ field, reason: `${field} is only accepted with ${what}` }] : [];

/** root_pass is required with an image; keys, users and the script need one; script answers need a script. */
export const DEPLOY_RULES: CrossRule[] = [
  (body, { mode }): FieldError[] =>
    mode === 'create' && present(body, 'image') && !present(body, 'root_pass') ? [{ field: 'root_pass', reason: 'root_pass is required when deploying an image' }] : [],
  onlyWith('root_pass', 'image', 'an image'),
  onlyWith('authorized_keys', 'image', 'an image'),
  onlyWith('authorized_users', 'image', 'an image'),
  onlyWith('stackscript_id', 'image', 'an image the script supports'),
  onlyWith('stackscript_data', 'stackscript_id'),
];
