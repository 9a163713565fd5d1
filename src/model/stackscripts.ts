import { defineResource, own, type CrossRule, type FieldError } from './schema.js';

/** A user-defined field, parsed from a `<UDF name="…" label="…" …/>` tag in the script. */
export interface UserDefinedField {
  label: string;
  name: string;
  example: string;
  oneOf?: string;
  manyOf?: string;
  default?: string;
}

const UDF_TAG = /<UDF\b([^>]*?)\/?>/gi;
const UDF_ATTRIBUTE = /([A-Za-z]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const UDF_ATTRIBUTES = ['name', 'label', 'example', 'oneOf', 'manyOf', 'default'] as const;
/** Names become environment variables of the deployed script. */
const UDF_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const choices = (list: string) => list.split(',').map((c) => c.trim());

function scanUdfs(script: string): { fields: UserDefinedField[]; problems: string[] } {
  const fields: UserDefinedField[] = [];
  const problems: string[] = [];
  let n = 0;
  for (const tag of script.matchAll(UDF_TAG)) {
    n++;
    const attrs: Record<string, string> = {};
    for (const a of tag[1]!.matchAll(UDF_ATTRIBUTE)) {
      const name = UDF_ATTRIBUTES.find((known) => known.toLowerCase() === a[1]!.toLowerCase());
      if (name) attrs[name] = a[2] ?? a[3] ?? '';
    }
    const where = `UDF ${n}${attrs.name ? ` (${attrs.name})` : ''}`;
    if (!attrs.name) problems.push(`${where} needs a name`);
    else if (!UDF_NAME.test(attrs.name)) problems.push(`${where}: name may contain only letters, digits and underscores, not starting with a digit`);
    else if (fields.some((f) => f.name === attrs.name)) problems.push(`${where}: name is used by another UDF`);
    if (!attrs.label) problems.push(`${where} needs a label`);
    if (attrs.oneOf !== undefined && attrs.manyOf !== undefined) problems.push(`${where} may have oneOf or manyOf, not both`);
    const options = attrs.oneOf ?? attrs.manyOf;
    if (options !== undefined && attrs.default !== undefined && attrs.default !== '') {
      const defaults = attrs.oneOf !== undefined ? [attrs.default] : choices(attrs.default);
      if (!defaults.every((d) => choices(options).includes(d))) problems.push(`${where}: default must be among its choices`);
    }
    const field: UserDefinedField = { label: attrs.label ?? '', name: attrs.name ?? '', example: attrs.example ?? '' };
    for (const optional of ['oneOf', 'manyOf', 'default'] as const) if (attrs[optional] !== undefined) field[optional] = attrs[optional];
    fields.push(field);
  }
  return { fields, problems };
}

/** The script's user-defined fields, in the order the tags appear. */
export function parseUdfs(script: string): UserDefinedField[] {
  return scanUdfs(script).fields;
}

/** Upstream rule: a script starts with an interpreter line; its UDF tags must be well formed. */
export function scriptProblem(script: string): string | null {
  const problems = [...(script.startsWith('#!') ? [] : ['script must start with an interpreter line such as #!/bin/bash']), ...scanUdfs(script).problems];
  return problems.length === 0 ? null : problems.join('; ');
}

/**
 * Checks the answers a deployment gives (stackscript_data) against the script's
 * fields: a field without a default needs an answer, oneOf takes one of its
 * choices, manyOf a comma list of them; unknown keys are refused.
 */
export function stackscriptDataErrors(fields: readonly UserDefinedField[], data: Record<string, unknown>, path = 'stackscript_data'): FieldError[] {
  const errors: FieldError[] = [];
  for (const key of Object.keys(data)) {
    if (!fields.some((f) => f.name === key)) errors.push({ field: `${path}.${key}`, reason: `${key} is not a field of this StackScript` });
  }
  for (const f of fields) {
    const at = `${path}.${f.name}`;
    // A UDF may be named constructor or toString: only what the request holds counts.
    const value = own(data, f.name);
    if (value === undefined) {
      if (f.default === undefined) errors.push({ field: at, reason: `${f.name} (${f.label}) is required` });
      continue;
    }
    if (typeof value !== 'string') {
      errors.push({ field: at, reason: `${f.name} must be a string` });
    } else if (f.oneOf !== undefined && !choices(f.oneOf).includes(value)) {
      errors.push({ field: at, reason: `${f.name} must be one of: ${f.oneOf}` });
    } else if (f.manyOf !== undefined && value !== '' && !choices(value).every((v) => choices(f.manyOf!).includes(v))) {
      errors.push({ field: at, reason: `${f.name} must be a comma-separated list of: ${f.manyOf}` });
    }
  }
  return errors;
}

const publicStaysPublic: CrossRule = (body, { mode, current }) =>
  mode === 'update' && current?.is_public === true && body.is_public === false
    ? [{ field: 'is_public', reason: 'A public StackScript cannot be made private' }]
    : [];

export const StackScript = defineResource(
  'stackscript',
  {
    id: { kind: 'string', readOnly: true, title: 'ID' },
    username: { kind: 'string', readOnly: true, title: 'Author' },
    user_gravatar_id: { kind: 'string', readOnly: true },
    label: { kind: 'string', title: 'Label', required: true, filterable: true, minLength: 3, maxLength: 128 },
    description: { kind: 'string', title: 'Description', filterable: true, default: '' },
    images: {
      kind: 'array',
      title: 'Images',
      help: 'Image IDs this script can deploy, e.g. vm/debian12',
      required: true,
      minItems: 1,
      items: { kind: 'string', minLength: 1 },
    },
    deployments_total: { kind: 'integer', readOnly: true, filterable: true, title: 'Deployments' },
    deployments_active: { kind: 'integer', readOnly: true, title: 'Active deployments' },
    is_public: { kind: 'boolean', title: 'Public', help: 'Once public, a script can never be made private', filterable: true, default: false },
    created: { kind: 'datetime', readOnly: true },
    updated: { kind: 'datetime', readOnly: true },
    rev_note: { kind: 'string', title: 'Revision note', filterable: true, default: '' },
    script: { kind: 'string', title: 'Script', help: 'Starts with #!; <UDF name="…" label="…"/> tags ask for input', required: true, check: scriptProblem },
    user_defined_fields: { kind: 'array', readOnly: true, title: 'User-defined fields' },
  },
  [publicStaysPublic],
);

/** A script as the API returns it. */
export interface StackScript {
  id: string;
  username: string;
  user_gravatar_id: string;
  label: string;
  description: string;
  images: string[];
  deployments_total: number;
  deployments_active: number;
  is_public: boolean;
  created: string;
  updated: string;
  rev_note: string;
  script: string;
  user_defined_fields: UserDefinedField[];
}

/** The stored script row, as reference.ts seeds the public ones (its fields are read from the script); owner_id is null for the provider's scripts. */
export interface StackScriptRecord extends Omit<StackScript, 'user_defined_fields'>, Record<string, unknown> {
  owner_id: number | null;
}
