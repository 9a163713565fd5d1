import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { filterableFields, type FieldSpec, type ResourceSchema } from '../../src/model/schema.js';

/**
 * Generators of requests for the service's fuzz test: bodies and filters built
 * from src/model's schemas, then broken the ways clients break them.
 */

/** Every ResourceSchema src/model exports. */
export async function modelSchemas(): Promise<ResourceSchema[]> {
  const dir = new URL('../../src/model/', import.meta.url);
  const found = new Map<string, ResourceSchema>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const mod = (await import(new URL(file, dir).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      const s = value as Partial<ResourceSchema>;
      if (s && typeof s === 'object' && typeof s.name === 'string' && s.fields && typeof s.fields === 'object') found.set(s.name, s as ResourceSchema);
    }
  }
  return [...found.values()];
}

/** JSON text spliced into a body as is: nesting too deep to build as objects and stringify. */
export class RawText {
  constructor(readonly text: string) {}
}

/** JSON text of a generated value: own keys only, so a `__proto__` key set as data is written like any other. */
export function toJson(value: unknown): string {
  if (value instanceof RawText) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value && typeof value === 'object') return `{${Object.keys(value).map((k) => `${JSON.stringify(k)}:${toJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** An object whose keys are data, whatever they are named (a `__proto__` key stays a key). */
function dataObject(entries: [string, unknown][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf', '__defineGetter__'];

const loneSurrogate = fc.constantFrom('\ud800', 'ab\udbff', '\udc00cd', 'x\ud83dy', 'tag-\udfff');
const deep = fc.constantFrom(
  ...[33, 200, 5_000, 100_000].flatMap((n) => [new RawText(`${'['.repeat(n)}${']'.repeat(n)}`), new RawText(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`)]),
);
const hugeNumber = fc.constantFrom(1e308, -1e308, 2 ** 53 + 2, -(2 ** 63), 2 ** 31, -1, 0, 0.5, -0.000001, 1e-320, 99999999999999999999);

/** Values of the wrong kind, size or encoding for any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  hugeNumber,
  loneSurrogate,
  fc.constantFrom('', ' ', 'x'.repeat(70_000), '%', '../../etc', "'; DROP TABLE rows; --", '\u0000', '😀'.repeat(300), '<REDACTED>'),
  fc.boolean(),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 3 }),
  fc.constantFrom(...PROTOTYPE_NAMES).map((k) => dataObject([[k, 1]])),
  deep,
  fc.jsonValue({ maxDepth: 3 }),
);

const idLike = fc.oneof(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 41_000, max: 41_010 }), fc.integer({ min: 1, max: 1_000_000 }));

/** A value its spec accepts, or close to one: the way a correct client fills the field. */
export function fieldValue(spec: FieldSpec, depth = 0): fc.Arbitrary<unknown> {
  switch (spec.kind) {
    case 'string': {
      const min = spec.minLength ?? 0;
      const max = Math.max(min, Math.min(spec.maxLength ?? 24, 40));
      return fc.oneof(
        fc.stringMatching(/^[a-z][a-z0-9-]{2,20}[a-z0-9]$/).filter((s) => s.length >= min && s.length <= max),
        fc.string({ minLength: min, maxLength: max }),
        fc.ipV4(),
        fc.ipV4().map((ip) => `${ip}/32`),
        fc.constantFrom('us-east', 'eu-west', 'g6-standard-1', 'vm/debian12', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGxmFoI2 fuzz@x'),
      );
    }
    case 'datetime':
      return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19));
    case 'integer':
      return fc.oneof(fc.integer({ min: spec.min ?? 0, max: spec.max ?? 100_000 }), idLike);
    case 'number':
      return fc.double({ min: spec.min ?? 0, max: spec.max ?? 1e6, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return spec.values && spec.values.length > 0 ? fc.constantFrom(...spec.values) : fc.string();
    case 'array':
      return depth > 4 ? fc.constant([]) : fc.array(spec.items ? fieldValue(spec.items, depth + 1) : fc.string(), { minLength: spec.minItems ?? 0, maxLength: Math.min(spec.maxItems ?? 3, 3) });
    case 'object':
      return depth > 4 || !spec.fields ? fc.constant({}) : fieldsValue(spec.fields, depth + 1);
    case 'map':
      return fc
        .uniqueArray(fc.tuple(spec.keys && spec.keys.length > 0 ? fc.constantFrom(...spec.keys) : fc.string({ maxLength: 8 }), spec.items ? fieldValue(spec.items, depth + 1) : fc.jsonValue({ maxDepth: 1 })), { maxLength: 3, selector: ([k]) => k })
        .map(dataObject);
    case 'json':
      return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
  }
}

function fieldsValue(fields: Record<string, FieldSpec>, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const writable = Object.entries(fields).filter(([, s]) => !s.readOnly);
  if (writable.length === 0) return fc.constant({});
  return fc
    .tuple(...writable.map(([key, spec]) => fc.option(fieldValue(spec, depth).map((v) => [key, v] as [string, unknown]), { freq: spec.required ? 8 : 2, nil: undefined })))
    .map((entries) => dataObject(entries.filter((e): e is [string, unknown] => e !== undefined)));
}

/** A copy to break: generated values are shared between runs, and a mutation in place would reach the next run (or itself). */
function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value && typeof value === 'object' && !(value instanceof RawText)) return dataObject(Object.keys(value).map((k) => [k, copy((value as Record<string, unknown>)[k])]));
  return value;
}

/** Every object in a value, the value itself first when it is one. */
function objectsIn(value: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
  if (Array.isArray(value)) value.forEach((v) => objectsIn(v, out));
  else if (value && typeof value === 'object' && !(value instanceof RawText)) {
    out.push(value as Record<string, unknown>);
    Object.values(value).forEach((v) => objectsIn(v, out));
  }
  return out;
}

type Mutation = (body: unknown) => unknown;

/** The ways a body is broken: a field's value replaced, a prototype-named key added at any level, or the whole of it replaced. */
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Mutation>((b) => b) },
  {
    weight: 4,
    arbitrary: fc.tuple(fc.nat(), fc.nat(), hostileValue).map(([at, which, hostile]): Mutation => (b) => {
      const objects = objectsIn(b);
      const target = objects[at % Math.max(1, objects.length)];
      const value = copy(hostile);
      const keys = target ? Object.keys(target) : [];
      if (target && keys.length > 0) Object.defineProperty(target, keys[which % keys.length]!, { value, enumerable: true, writable: true, configurable: true });
      return b;
    }),
  },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.nat(), fc.constantFrom(...PROTOTYPE_NAMES), fc.oneof(hostileValue, fc.constant({}))).map(([at, key, value]): Mutation => (b) => {
      const objects = objectsIn(b);
      const target = objects[at % Math.max(1, objects.length)];
      if (target) Object.defineProperty(target, key, { value: copy(value), enumerable: true, writable: true, configurable: true });
      return b;
    }),
  },
  { weight: 1, arbitrary: hostileValue.map((v): Mutation => () => v) },
);

/** A request body for a schema: well formed, then maybe broken. The text is what goes on the wire. */
export function bodyText(schema: ResourceSchema): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.tuple(fieldsValue(schema.fields, 0), mutation).map(([body, mutate]) => toJson(mutate(copy(body)))) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', '{"a":1,}', '[1,2', 'null', 'true', '"text"', '{"a":"\\ud800"}', '{"\\udc00":1}', `{"a":${'1'.repeat(400)}}`) },
  );
}

const FILTER_OPERATORS = ['+gt', '+gte', '+lt', '+lte', '+contains', '+neq'];
const UNKNOWN_OPERATORS = ['+regex', '+in', '+like', '+', '++or', ...PROTOTYPE_NAMES];

const filterScalar = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null), hugeNumber, loneSurrogate);

/** X-Filter values: the schema's filterable fields and others, known and unknown operators, nesting, sizes at and over the limits. */
export function filterValue(schema: ResourceSchema | undefined): fc.Arbitrary<unknown> {
  const names = [...new Set([...(schema ? filterableFields(schema) : []), 'id', 'label', 'tags', 'created', 'status', 'entity.id'])];
  const name = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...names) }, { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES, '+order_by', 'no_such_field', 'data', "x') OR 1=1 --") });
  const leaf = fc.oneof(
    fc.tuple(name, filterScalar).map(([n, v]) => dataObject([[n, v]])),
    fc.tuple(name, fc.constantFrom(...FILTER_OPERATORS, ...UNKNOWN_OPERATORS), fc.oneof(filterScalar, hostileValue)).map(([n, op, v]) => dataObject([[n, dataObject([[op, v]])]])),
    fc.constant({}),
  );
  const tree = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.tuple(fc.constantFrom('+and', '+or'), fc.array(tie('node'), { minLength: 0, maxLength: 4 })).map(([op, items]) => ({ [op]: items }))),
  })).node;
  const wide = fc.tuple(fc.constantFrom('+and', '+or'), fc.constantFrom(99, 100, 101, 1_000), fc.constantFrom('id', 'label', 'constructor')).map(([op, n, field]) => ({
    [op]: Array.from({ length: n }, (_, i) => dataObject([[field, i]])),
  }));
  const ordered = fc.tuple(tree, fc.option(fc.oneof(fc.constantFrom(...names, ...PROTOTYPE_NAMES), hostileValue)), fc.option(fc.constantFrom('asc', 'desc', 'up', 1))).map(([f, by, order]) => {
    const out = f && typeof f === 'object' && !Array.isArray(f) ? { ...(f as object) } : { '+and': [f] };
    if (by !== null) Object.defineProperty(out, '+order_by', { value: by, enumerable: true });
    if (order !== null) Object.defineProperty(out, '+order', { value: order, enumerable: true });
    return out;
  });
  return fc.oneof({ weight: 6, arbitrary: ordered }, { weight: 1, arbitrary: wide }, { weight: 1, arbitrary: deep }, { weight: 1, arbitrary: hostileValue });
}

/** Path parameters: ids that exist (from the harvested pool), and ids no server expects. */
export function pathValue(pool: readonly string[]): fc.Arbitrary<string> {
  const hostile = fc.constantFrom('0', '-1', '99999999999999999999', 'abc', '%ED%A0%80', '%', '%zz', '..', '%2e%2e', '%00', 'x'.repeat(3_000), '1.5', '__proto__', 'constructor', '%F0%9F%98%80');
  return pool.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pool).map(encodeURIComponent) }, { weight: 1, arbitrary: hostile }) : hostile;
}

/** A query string: paging parameters at and over their limits, and keys no endpoint takes. */
export const queryText: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom('page', 'page_size', 'marker', 'delimiter', 'prefix', '__proto__', 'constructor', 'toString', 'page[]', 'a'),
      fc.constantFrom('1', '0', '-1', '25', '100', '101', 'abc', '1e3', '99999999999999999999', '', '%ED%A0%80', '%', '%00', 'x'.repeat(3_000)),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${v}`).join('&')}`));
