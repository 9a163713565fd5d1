import { SCOPE_GROUPS } from '../../model/formats.js';
import { defineResource, validate, type FieldSpec } from '../../model/schema.js';
import { Token } from '../../model/tokens.js';

/**
 * The new-token form: the scope string as a multi-choice (all, or a level per
 * group) instead of free text. Label and expiry are the Token model's own
 * fields, and the whole body is checked by the Token model once the choices
 * are joined into a scope string, so the rules stay the service's.
 */

export const NO_ACCESS = 'none';
const LEVELS = [NO_ACCESS, 'read_only', 'read_write'] as const;

const groupField = (group: string): FieldSpec => ({
  kind: 'enum',
  values: LEVELS,
  default: NO_ACCESS,
  title: group,
  help: `${group}: none, read_only or read_write (ignored when All scopes is on)`,
});

/** The choices joined into the API's scope string: "*", or "<group>:<level> …". */
export function scopeStringOf(picked: unknown): string {
  const p = (picked ?? {}) as Record<string, unknown>;
  if (p.all === true) return '*';
  return SCOPE_GROUPS.filter((g) => typeof p[g] === 'string' && p[g] !== NO_ACCESS)
    .map((g) => `${g}:${p[g] as string}`)
    .join(' ');
}

/** The form's body as POST /profile/tokens takes it. */
export function tokenBody(form: Record<string, unknown>): Record<string, unknown> {
  const { scopes, ...rest } = form;
  return { ...rest, scopes: scopeStringOf(scopes) };
}

export const TokenCreateForm = defineResource(
  'token-create',
  {
    label: Token.fields.label!,
    expiry: Token.fields.expiry!,
    scopes: {
      kind: 'object',
      title: 'Scopes',
      fields: {
        all: { kind: 'boolean', title: 'All scopes (*)', help: 'Every scope, now and later; cannot exceed the scopes of the token you use' },
        ...Object.fromEntries(SCOPE_GROUPS.map((g) => [g, groupField(g)])),
      },
    },
  },
  [(body, ctx) => validate(Token, tokenBody(body), ctx).errors],
);

/** Field names for the form, in order: label, expiry, then the scope choices. */
export const TOKEN_FORM_FIELDS = ['label', 'expiry', 'scopes.all', ...SCOPE_GROUPS.map((g) => `scopes.${g}`)];
