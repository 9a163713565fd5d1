import { plural } from './plural.js';

/**
 * The seed's resources as data. One FieldSpec drives the service's request
 * validation, the forms' as-you-type checks and the response presentation, so
 * a rule lives in exactly one place.
 */

export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'array' | 'object' | 'map' | 'datetime' | 'json';

export type Mode = 'create' | 'update';

export interface FieldError {
  field?: string;
  reason: string;
}

export interface FieldSpec {
  kind: FieldKind;
  /** Human label for forms and detail views. */
  title?: string;
  help?: string;
  nullable?: boolean;
  /** Required on create. */
  required?: boolean;
  /** Required on update too (boot config label and devices). */
  requiredOnUpdate?: boolean;
  /** Ignored on input. */
  readOnly?: boolean;
  /** Accepted on input, never returned. */
  writeOnly?: boolean;
  /** Accepted on input, returned as the literal <REDACTED>. */
  redacted?: boolean;
  /** Accepted on create only; on update a different value is rejected. */
  createOnly?: boolean;
  /** Accepted on update only. */
  updateOnly?: boolean;
  /** An updateOnly field later releases take on create too (a balancer's tags): the tolerant reader does. */
  laterOnCreate?: boolean;
  /** Masked in forms. */
  secret?: boolean;
  /**
   * A field of a later release with one obvious meaning in 4.83.1 (a config
   * created with its nodes): the tolerant reader takes it, the strict reader
   * and the forms treat it as unknown, and it is never presented.
   */
  later?: boolean;
  /**
   * A field only later releases send (a firewall's policies, a login's
   * status): the client reads, checks and shows it where a server sends it.
   * To the service, its readers and the forms it does not exist, so 4.83.1
   * stays the contract the service implements.
   */
  newer?: boolean;
  filterable?: boolean;
  deprecated?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  values?: readonly string[];
  /** Extra string check: returns a reason, or null when the value is fine. */
  check?: (value: string) => string | null;
  items?: FieldSpec;
  minItems?: number;
  maxItems?: number;
  fields?: Record<string, FieldSpec>;
  /** For kind map: the allowed keys, each holding `items`-shaped values. */
  keys?: readonly string[];
  default?: unknown;
}

/**
 * How the service reads a request body. Tolerant (the default of `vmtui
 * serve`): a field the resource does not define, and an explicit null for an
 * optional field that may not be null, are taken as absent and their paths
 * noted in `ignored`, as the real API takes the bodies of clients built for
 * later releases. Strict: both are refused, as 4.83.1 read to the letter.
 * Without a reader (the forms) validation is strict.
 */
export interface Reader {
  strict: boolean;
  /** Paths of what was taken as absent, in the notation of the errors' `field`. */
  ignored: string[];
}

export interface RuleContext {
  mode: Mode;
  /** The stored record on update, for rules that compare against it. */
  current?: Record<string, unknown>;
  reader?: Reader;
  /** The time rules judge against (the service's clock, which a test may move); the machine's time when absent. */
  now?: number;
}

export type CrossRule = (body: Record<string, unknown>, ctx: RuleContext) => FieldError[];

export interface ResourceSchema {
  name: string;
  fields: Record<string, FieldSpec>;
  rules?: CrossRule[];
}

export const REDACTED = '<REDACTED>';

export function defineResource(name: string, fields: Record<string, FieldSpec>, rules: CrossRule[] = []): ResourceSchema {
  return { name, fields, rules };
}

const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key));

function typeName(spec: FieldSpec): string {
  switch (spec.kind) {
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'array':
      return 'an array';
    case 'object':
    case 'map':
    case 'json':
      return 'an object';
    default:
      return 'a string';
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A record's own entry under a key that came from input: `toString`,
 * `constructor` or `__proto__` name nothing here, not an inherited member of
 * Object.prototype. Every lookup by a request's key goes through this.
 */
export const own = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(record, key) ? record[key] : undefined);

/**
 * Checks one value against its spec; the same check runs in forms as the user
 * types. `tolerant`: the tolerant reader's check, to which later-release
 * fields are known. `newerKnown`: the client's check, which takes the
 * `newer` fields a later server sent back (false for the service's readers).
 */
export function checkField(spec: FieldSpec, value: unknown, path: string, mode: Mode = 'create', tolerant = false, newerKnown = true): FieldError[] {
  if (value === null) {
    return spec.nullable ? [] : [{ field: path, reason: `${path} must not be null` }];
  }
  if (value === undefined) return [];
  const wrongType = [{ field: path, reason: `${path} must be ${typeName(spec)}` }];
  switch (spec.kind) {
    case 'string':
    case 'datetime': {
      if (typeof value !== 'string') return wrongType;
      const len = [...value].length;
      if (spec.minLength !== undefined && spec.maxLength !== undefined && (len < spec.minLength || len > spec.maxLength)) {
        return [{ field: path, reason: `${path} must be ${spec.minLength}..${spec.maxLength} characters` }];
      }
      if (spec.minLength !== undefined && len < spec.minLength) {
        return [{ field: path, reason: `${path} must be at least ${plural(spec.minLength, 'character')}` }];
      }
      if (spec.maxLength !== undefined && len > spec.maxLength) {
        return [{ field: path, reason: `${path} must be at most ${plural(spec.maxLength, 'character')}` }];
      }
      if (spec.kind === 'datetime' && Number.isNaN(Date.parse(value.endsWith('Z') ? value : `${value}Z`))) {
        return [{ field: path, reason: `${path} must be an ISO 8601 date-time` }];
      }
      const reason = spec.check?.(value);
      return reason ? [{ field: path, reason }] : [];
    }
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return wrongType;
      if (spec.kind === 'integer' && !Number.isInteger(value)) return wrongType;
      if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) {
        const range = spec.max === undefined ? `at least ${spec.min}` : spec.min === undefined ? `at most ${spec.max}` : `between ${spec.min} and ${spec.max}`;
        return [{ field: path, reason: `${path} must be ${range}` }];
      }
      return [];
    }
    case 'boolean':
      return typeof value === 'boolean' ? [] : wrongType;
    case 'enum':
      if (typeof value !== 'string' || !spec.values?.includes(value)) {
        return [{ field: path, reason: `${path} must be one of: ${spec.values?.join(', ')}` }];
      }
      return [];
    case 'array': {
      if (!Array.isArray(value)) return wrongType;
      if (spec.minItems !== undefined && value.length < spec.minItems) {
        return [{ field: path, reason: `${path} must have at least ${plural(spec.minItems, 'item')}` }];
      }
      if (spec.maxItems !== undefined && value.length > spec.maxItems) {
        return [{ field: path, reason: `${path} must have at most ${plural(spec.maxItems, 'item')}` }];
      }
      return spec.items ? value.flatMap((item, i) => checkField(spec.items!, item, join(path, i), mode, tolerant, newerKnown)) : [];
    }
    case 'object': {
      if (!isPlainObject(value)) return wrongType;
      return spec.fields ? checkFields(spec.fields, value, path, mode, tolerant, newerKnown).errors : [];
    }
    case 'map': {
      if (!isPlainObject(value)) return wrongType;
      return Object.entries(value).flatMap(([k, v]) => {
        if (spec.keys && !spec.keys.includes(k)) return [{ field: join(path, k), reason: `${join(path, k)} is not a known key` }];
        return spec.items ? checkField(spec.items, v, join(path, k), mode, tolerant, newerKnown) : [];
      });
    }
    case 'json':
      return isPlainObject(value) ? [] : wrongType;
  }
}

interface Checked {
  value: Record<string, unknown>;
  errors: FieldError[];
}

const requiredIn = (spec: FieldSpec, mode: Mode) => (mode === 'create' ? spec.required : spec.requiredOnUpdate) === true;

/**
 * The tolerant reader's pass: the body without the fields its resource does
 * not define and without the nulls that mean "absent", at any depth, each
 * path noted. A map's keys (a config's device slots) and an enum's values are
 * rules of the seed, not fields: they are kept for validation to judge.
 */
function known(fields: Record<string, FieldSpec>, body: Record<string, unknown>, path: string, mode: Mode, ignored: string[]): Record<string, unknown> {
  const kept: [string, unknown][] = [];
  for (const [key, raw] of Object.entries(body)) {
    const spec = own(fields, key);
    const at = join(path, key);
    if (!spec || spec.newer || (raw === null && !spec.nullable && !spec.readOnly && !requiredIn(spec, mode))) ignored.push(at);
    else kept.push([key, knownValue(spec, raw, at, mode, ignored)]);
  }
  // fromEntries defines own properties: a kept key never reaches a prototype.
  return Object.fromEntries(kept);
}

function knownValue(spec: FieldSpec, value: unknown, path: string, mode: Mode, ignored: string[]): unknown {
  if (spec.kind === 'object' && spec.fields && isPlainObject(value)) return known(spec.fields, value, path, mode, ignored);
  if (spec.kind === 'array' && spec.items && Array.isArray(value)) return value.map((item, i) => knownValue(spec.items!, item, join(path, i), mode, ignored));
  if (spec.kind === 'map' && spec.items && isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, knownValue(spec.items!, v, join(path, k), mode, ignored)]));
  }
  return value;
}

function checkFields(fields: Record<string, FieldSpec>, body: Record<string, unknown>, path: string, mode: Mode, tolerant: boolean, newerKnown: boolean, current?: Record<string, unknown>): Checked {
  const value: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const [key, raw] of Object.entries(body)) {
    const spec = own(fields, key);
    const at = join(path, key);
    if (!spec || (spec.newer && !newerKnown) || (spec.later && !tolerant)) {
      errors.push({ field: at, reason: `${at} is not a known field` });
      continue;
    }
    if (spec.readOnly) continue;
    if (mode === 'create' && spec.updateOnly && !(spec.laterOnCreate && tolerant)) {
      errors.push({ field: at, reason: `${at} can only be set by an update` });
      continue;
    }
    if (mode === 'update' && spec.createOnly) {
      const unchanged = current !== undefined && JSON.stringify(current[key]) === JSON.stringify(raw);
      if (!unchanged) errors.push({ field: at, reason: `${at} can only be set at creation` });
      continue;
    }
    const fieldErrors = checkField(spec, raw, at, mode, tolerant, newerKnown);
    errors.push(...fieldErrors);
    if (fieldErrors.length === 0) value[key] = raw;
  }
  for (const [key, spec] of Object.entries(fields)) {
    if (requiredIn(spec, mode) && own(body, key) === undefined) errors.push({ field: join(path, key), reason: `${join(path, key)} is required` });
  }
  return { value, errors };
}

/**
 * Validates a request body for create or update: unknown fields, types, lengths,
 * ranges, enums, required fields, then the resource's cross-field rules. Every
 * problem is reported at once. Read-only fields are dropped from the result.
 * A tolerant reader first drops what the resource does not define (see Reader).
 */
export function validate(schema: ResourceSchema, body: unknown, ctx: RuleContext): Checked {
  if (!isPlainObject(body)) return { value: {}, errors: [{ reason: 'The request body must be a JSON object' }] };
  const tolerant = ctx.reader !== undefined && !ctx.reader.strict;
  const read = tolerant ? known(schema.fields, body, '', ctx.mode, ctx.reader!.ignored) : body;
  // The client's own checks (no reader) know what later servers send back, as a firewall rule's action; the service's readers do not.
  const checked = checkFields(schema.fields, read, '', ctx.mode, tolerant, ctx.reader === undefined, ctx.current);
  for (const rule of schema.rules ?? []) checked.errors.push(...rule(read, ctx));
  return checked;
}

/** The response form of a stored record: write-only fields gone, redacted ones masked, unknown keys dropped. */
export function present(schema: ResourceSchema, record: Record<string, unknown>): Record<string, unknown> {
  return presentFields(schema.fields, record);
}

function presentFields(fields: Record<string, FieldSpec>, record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(fields)) {
    if (spec.writeOnly || spec.later || spec.newer) continue;
    const v = record[key];
    if (spec.redacted) {
      out[key] = v === null || v === undefined ? null : REDACTED;
      continue;
    }
    if (v === undefined) {
      out[key] = spec.default !== undefined ? spec.default : null;
      continue;
    }
    out[key] = spec.kind === 'object' && spec.fields && isPlainObject(v) ? presentFields(spec.fields, v) : v;
  }
  return out;
}

/** Names of the fields a list of this resource may be filtered and sorted on. */
export function filterableFields(schema: ResourceSchema): string[] {
  return Object.entries(schema.fields)
    .filter(([, s]) => s.filterable)
    .map(([k]) => k);
}

/** The fields a form shows for a mode: writable ones, in schema order. */
export function formFields(schema: ResourceSchema, mode: Mode): [string, FieldSpec][] {
  return Object.entries(schema.fields).filter(([, s]) => !s.readOnly && !s.later && !s.newer && !(mode === 'update' && s.createOnly) && !(mode === 'create' && s.updateOnly));
}
