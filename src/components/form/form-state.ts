import { checkField, validate, type FieldError, type FieldSpec, type Mode, type ResourceSchema } from '../../model/schema.js';
import type { ApiClient } from '../../api/client.js';
import { getPath } from '../cells.js';
import type { Choice, ChoiceScope, FormSpec } from './types.js';

/**
 * The form's logic without Ink: fields from a schema, raw input to values,
 * errors from the model's own checkField and validate, and the service's
 * errors mapped back onto fields.
 */

/** multi: an array field with choices, several picked (also typed, comma-separated). */
export type InputKind = 'text' | 'number' | 'choice' | 'multi' | 'bool' | 'list' | 'json';

export interface FormField {
  name: string;
  spec: FieldSpec;
  title: string;
  kind: InputKind;
  required: boolean;
  secret: boolean;
  hidden: boolean;
  help?: string;
  choices?: Choice[];
  loadChoices?: (client: ApiClient, scope: ChoiceScope) => Promise<Choice[]>;
  /** Lines a multi-line text field takes (FieldOverride.lines); 1 for every other field. */
  lines: number;
  default?: unknown;
}

/** What the user has entered: text for most kinds, a boolean for switches. */
export type Raw = string | boolean;
export type Values = Record<string, Raw>;

export function specAt(schema: ResourceSchema, name: string): FieldSpec | undefined {
  const [head, ...rest] = name.split('.');
  let spec: FieldSpec | undefined = schema.fields[head!];
  // A map's keys (config devices.sda) hold its `items` spec.
  for (const part of rest) spec = spec?.kind === 'map' ? (!spec.keys || spec.keys.includes(part) ? spec.items : undefined) : spec?.fields?.[part];
  return spec;
}

const humanize = (name: string) => {
  const last = name.split('.').pop()!.replace(/_/g, ' ');
  return last.charAt(0).toUpperCase() + last.slice(1);
};

function inputKind(spec: FieldSpec, hasChoices: boolean): InputKind {
  if (hasChoices && spec.kind === 'array') return 'multi';
  if (hasChoices || spec.kind === 'enum') return 'choice';
  if (spec.kind === 'boolean') return 'bool';
  if (spec.kind === 'integer' || spec.kind === 'number') return 'number';
  if (spec.kind === 'array') return spec.items && ['object', 'map', 'json', 'array'].includes(spec.items.kind) ? 'json' : 'list';
  if (spec.kind === 'object' || spec.kind === 'map' || spec.kind === 'json') return 'json';
  return 'text';
}

export function buildFields(form: FormSpec, mode: Mode): FormField[] {
  return form.fields.map((name) => {
    const spec = specAt(form.schema, name);
    if (!spec) throw new Error(`Form field "${name}" is not in schema ${form.schema.name}`);
    const o = form.overrides?.[name] ?? {};
    const choices = Array.isArray(o.choices) ? o.choices : spec.kind === 'enum' ? spec.values?.map((value) => ({ value })) : undefined;
    const kind = inputKind(spec, o.choices !== undefined);
    return {
      name,
      spec,
      title: o.title ?? spec.title ?? humanize(name),
      kind,
      required: o.required ?? Boolean(mode === 'create' ? spec.required : spec.requiredOnUpdate),
      secret: Boolean(spec.secret),
      hidden: Boolean(o.hidden),
      help: o.help ?? spec.help,
      choices,
      loadChoices: typeof o.choices === 'function' ? o.choices : undefined,
      // JSON too (a rebuild's node list): it starts pretty-printed, a value per line.
      lines: o.lines && o.lines > 1 && (spec.kind === 'string' || kind === 'json') ? Math.floor(o.lines) : 1,
      default: o.default ?? spec.default,
    };
  });
}

function toRaw(field: FormField, v: unknown): Raw {
  if (field.kind === 'bool') return v === true;
  if (v === undefined || v === null) return '';
  if ((field.kind === 'list' || field.kind === 'multi') && Array.isArray(v)) return v.join(', ');
  if (field.kind === 'json' || typeof v === 'object') return JSON.stringify(v, null, field.lines > 1 ? 2 : undefined);
  return String(v);
}

/** Raw values to start from: the record (edit), else the override's or schema's default. */
export function initialValues(fields: FormField[], record?: Record<string, unknown>): Values {
  return Object.fromEntries(fields.map((f) => [f.name, toRaw(f, getPath(record, f.name) ?? f.default)]));
}

interface Parsed {
  empty: boolean;
  value?: unknown;
  error?: string;
}

/** The items of a list field as typed (or picked): comma- or line-separated, blanks dropped. */
export const listItems = (text: string) => text.split(/[,\n]/).map((s) => s.trim()).filter(Boolean);

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function parse(field: FormField, raw: Raw): Parsed {
  if (typeof raw === 'boolean') return { empty: false, value: raw };
  const text = field.kind === 'text' ? raw : raw.trim();
  if (text === '') return { empty: true };
  switch (field.kind) {
    case 'number':
      // Not a number: checkField reports it in the model's words.
      return { empty: false, value: NUMBER.test(text) ? Number(text) : text };
    case 'choice': {
      // Choice values are text; an integer field (a config id) gets its number.
      const numeric = field.spec.kind === 'integer' || field.spec.kind === 'number';
      return { empty: false, value: numeric && NUMBER.test(text) ? Number(text) : text };
    }
    case 'list':
    case 'multi': {
      // Where the API tells an empty list from an absent one (clone: no configs vs all), [] says "empty".
      if (text === '[]') return { empty: false, value: [] };
      const items = listItems(text);
      const numeric = field.spec.items?.kind === 'integer' || field.spec.items?.kind === 'number';
      return { empty: false, value: numeric ? items.map((s) => (NUMBER.test(s) ? Number(s) : s)) : items };
    }
    case 'json':
      try {
        return { empty: false, value: JSON.parse(text) };
      } catch {
        return { empty: false, error: `${field.title} is not valid JSON` };
      }
    default:
      return { empty: false, value: text };
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A message in the form's words: the API's names of its fields become their
 * titles ("alerts.cpu must be an integer" reads "CPU alert must be an
 * integer"). A plain word ("label") is replaced only where it starts the
 * message; a dotted or snake_case name anywhere.
 */
export function inWords(reason: string, fields: readonly FormField[]): string {
  let out = reason;
  for (const f of [...fields].sort((a, b) => b.name.length - a.name.length)) {
    const name = escapeRegExp(f.name);
    // Array items (authorized_keys.0) read as the field itself.
    const item = '(?:\\.\\d+)?';
    const pattern = /[._]/.test(f.name) ? new RegExp(`(?<![\\w.])${name}${item}(?![\\w])`, 'g') : new RegExp(`^${name}${item}(?![\\w.])`);
    out = out.replace(pattern, f.title);
  }
  return out;
}

/** The error to show beside a field as the user types; required only counts once a submit was tried. */
export function fieldError(field: FormField, raw: Raw, mode: Mode, submitted: boolean): string | undefined {
  const p = parse(field, raw);
  if (p.error) return p.error;
  if (p.empty) return field.required && submitted ? `${field.title} is required` : undefined;
  const reason = checkField(field.spec, p.value, field.name, mode)[0]?.reason;
  return reason && inWords(reason, [field]);
}

/**
 * On update, a field the user emptied: its text is sent empty, its list as
 * none, a nullable value as null; anything else cannot be emptied and says so.
 */
function clearedError(field: FormField, mode: Mode): string | undefined {
  if (mode !== 'update' || field.spec.nullable || field.kind === 'list' || field.kind === 'multi') return undefined;
  if (field.spec.kind !== 'string') return `${field.title} cannot be emptied`;
  const reason = checkField(field.spec, '', field.name, mode)[0]?.reason;
  return reason && inWords(reason, [field]);
}

function setPath(target: Record<string, unknown>, name: string, value: unknown) {
  const parts = name.split('.');
  let at = target;
  for (const part of parts.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
  at[parts[parts.length - 1]!] = value;
}

/**
 * The request body: on create every filled field, on update only what changed
 * (plus fields required on update). Switches are sent when changed or required; hidden
 * fields with a default always.
 */
export function buildBody(fields: FormField[], values: Values, initial: Values, mode: Mode): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = values[f.name] ?? '';
    const changed = raw !== initial[f.name];
    // A required switch counts as answered whatever its position (IP allocation's public).
    const always = (f.hidden && f.default !== undefined) || (mode === 'update' ? f.spec.requiredOnUpdate : f.kind === 'bool' && f.spec.required);
    if (!always && (f.kind === 'bool' || mode === 'update') && !changed) continue;
    const p = parse(f, raw);
    if (p.error) continue;
    if (!p.empty) setPath(body, f.name, p.value);
    else if (mode === 'update' && changed) {
      if (f.spec.nullable) setPath(body, f.name, null);
      else if (f.kind === 'list' || f.kind === 'multi') setPath(body, f.name, []);
      else if (f.spec.kind === 'string' && !clearedError(f, mode)) setPath(body, f.name, '');
    }
  }
  return body;
}

/** A value as the review of an edit shows it: choices by their label, secrets never, long text cut. */
function reviewText(f: FormField, raw: Raw, choices: Choice[] | undefined): string {
  if (typeof raw === 'boolean') return raw ? 'yes' : 'no';
  if (raw.trim() === '') return '(empty)';
  if (f.secret) return '(a new value)';
  const label = f.kind === 'choice' ? choices?.find((c) => c.value === raw)?.label : undefined;
  const text = (label ?? raw).replace(/\s*\n\s*/g, ' ⏎ ');
  return text.length > 32 ? `${text.slice(0, 31)}…` : text;
}

/** What an edit changes, one line a field: "Label: web-1 → web-2". */
export function changeLines(fields: readonly FormField[], values: Values, initial: Values, choicesOf: (name: string) => Choice[] | undefined): string[] {
  return fields
    .filter((f) => !f.hidden && (values[f.name] ?? '') !== (initial[f.name] ?? ''))
    .map((f) => `${f.title}: ${reviewText(f, initial[f.name] ?? '', choicesOf(f.name))} → ${reviewText(f, values[f.name] ?? '', choicesOf(f.name))}`);
}

export interface MappedErrors {
  fields: Record<string, string>;
  form: string[];
}

/** Errors onto the fields they name (a dotted path under a field counts as that field); the rest are form-level. */
export function mapErrors(errors: FieldError[], fields: FormField[]): MappedErrors {
  const out: MappedErrors = { fields: {}, form: [] };
  for (const e of errors) {
    const f = e.field
      ? fields.find((x) => !x.hidden && (x.name === e.field || e.field!.startsWith(`${x.name}.`) || x.name.startsWith(`${e.field}.`)))
      : undefined;
    if (f && !out.fields[f.name]) out.fields[f.name] = inWords(e.reason, fields);
    else if (!f) out.form.push(inWords(e.field && !e.reason.includes(e.field) ? `${e.field}: ${e.reason}` : e.reason, fields));
  }
  return out;
}

/** Everything wrong with the form before anything is sent: each field, then the schema's whole-body rules. */
export function checkForm(
  schema: ResourceSchema,
  fields: FormField[],
  values: Values,
  initial: Values,
  mode: Mode,
  current?: Record<string, unknown>,
): { body: Record<string, unknown>; errors: MappedErrors } {
  const perField: FieldError[] = fields.flatMap((f) => {
    const raw = values[f.name] ?? '';
    const emptied = raw !== initial[f.name] && parse(f, raw).empty;
    const reason = (emptied && clearedError(f, mode)) || fieldError(f, raw, mode, true);
    return reason ? [{ field: f.name, reason }] : [];
  });
  const body = buildBody(fields, values, initial, mode);
  const errors = perField.length ? perField : validate(schema, body, { mode, current }).errors;
  return { body, errors: mapErrors(errors, fields) };
}

/**
 * The schema's cross-field rules over what is entered so far, by field, so a
 * rule that links fields (content_type needed for PUT) shows as the user types.
 */
export function crossFieldErrors(
  schema: ResourceSchema,
  fields: FormField[],
  values: Values,
  initial: Values,
  mode: Mode,
  current?: Record<string, unknown>,
): Record<string, string> {
  if (!schema.rules?.length) return {};
  const body = buildBody(fields, values, initial, mode);
  return mapErrors(schema.rules.flatMap((rule) => rule(body, { mode, current })), fields).fields;
}
