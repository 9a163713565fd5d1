import type { FieldOverride } from '../../components/form/types.js';
import { imageChoices, orNone, sshKeyChoices, stackscriptChoices, userChoices } from './choices.js';

/** The deploy fields instance create and disk create share (model: DEPLOY_FIELDS), in form order. */
export const DEPLOY_FORM_FIELDS = ['image', 'root_pass', 'authorized_keys', 'authorized_users', 'stackscript_id', 'stackscript_data'];

export const DEPLOY_OVERRIDES: Record<string, FieldOverride> = {
  image: { choices: orNone('none', async (c) => imageChoices(c)), help: 'None: an empty disk. Private images (yours) first; :images lists them' },
  root_pass: { help: 'Required with an image; checked for strength as you type (Ctrl-R shows it)' },
  authorized_keys: { title: 'Root SSH keys', choices: sshKeyChoices, help: 'Enter picks from your profile keys; or paste public keys, comma-separated' },
  authorized_users: { choices: userChoices, help: "Their profile SSH keys go into root's authorized_keys" },
  stackscript_id: { choices: orNone('none', async (c) => stackscriptChoices(c)), help: 'Answers marked * have no default and must be given below' },
  stackscript_data: { help: 'JSON object of the script\'s answers, e.g. {"hostname": "web1"}' },
};
