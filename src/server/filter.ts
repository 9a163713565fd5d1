import { ApiError } from './errors.js';

/** Where a filterable field lives in the stored JSON, and whether it holds an array (tags). */
export interface FilterField {
  path: string;
  array?: boolean;
}

export type FilterFields = Record<string, FilterField>;

export interface SqlFilter {
  where: string;
  params: unknown[];
  orderBy?: string;
}

const fail = (reason: string) => new ApiError(400, [{ field: 'X-Filter', reason }]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Builds a filter field map from names; dotted names address nested keys. */
export function filterFields(names: string[], arrays: string[] = []): FilterFields {
  return Object.fromEntries(names.map((n) => [n, { path: `$.${n}`, array: arrays.includes(n) }]));
}

const sqlValue = (v: unknown) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

function comparison(field: FilterField, name: string, op: string, value: unknown, params: unknown[]): string {
  const col = `json_extract(data, '${field.path}')`;
  const numeric = ['+gt', '+gte', '+lt', '+lte'];
  if (numeric.includes(op)) {
    if (typeof value !== 'number' && typeof value !== 'string') throw fail(`${op} on ${name} needs a number`);
    params.push(value);
    const sym = { '+gt': '>', '+gte': '>=', '+lt': '<', '+lte': '<=' }[op as '+gt'];
    return `${col} ${sym} ?`;
  }
  if (op === '+contains') {
    if (typeof value !== 'string') throw fail(`+contains on ${name} needs a string`);
    const pattern = `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    params.push(pattern);
    if (field.array) return `EXISTS (SELECT 1 FROM json_each(data, '${field.path}') WHERE value LIKE ? ESCAPE '\\')`;
    return `${col} LIKE ? ESCAPE '\\'`;
  }
  if (op === '+neq') {
    if (value !== null && typeof value === 'object') throw fail(`+neq on ${name} needs a scalar`);
    params.push(sqlValue(value));
    if (field.array) return `NOT EXISTS (SELECT 1 FROM json_each(data, '${field.path}') WHERE value = ?)`;
    return `${col} IS NOT ?`;
  }
  throw fail(`${op} is not a filter operator`);
}

function equality(field: FilterField, value: unknown, params: unknown[]): string {
  if (value !== null && typeof value === 'object') throw fail('a filter value must be a string, number, boolean or null');
  params.push(sqlValue(value));
  if (field.array) return `EXISTS (SELECT 1 FROM json_each(data, '${field.path}') WHERE value = ?)`;
  return `json_extract(data, '${field.path}') IS ?`;
}

function clause(filter: unknown, fields: FilterFields, params: unknown[], prefix = ''): string {
  if (!isObject(filter)) throw fail('a filter must be a JSON object');
  const parts: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '+order_by' || key === '+order') continue;
    if (key === '+and' || key === '+or') {
      if (!Array.isArray(value) || value.length === 0) throw fail(`${key} needs a non-empty array of filters`);
      const inner = value.map((f) => `(${clause(f, fields, params)})`);
      parts.push(inner.join(key === '+and' ? ' AND ' : ' OR '));
      continue;
    }
    if (key.startsWith('+')) throw fail(`${key} is not a filter operator`);
    const name = prefix + key;
    const field = fields[name];
    if (isObject(value) && !field) {
      // A nested key such as entity.id is addressed by nesting objects.
      parts.push(clause(value, fields, params, `${name}.`));
      continue;
    }
    if (!field) throw fail(`${name} is not a filterable field`);
    if (isObject(value)) {
      const ops = Object.entries(value);
      if (ops.length === 0) throw fail(`the filter on ${name} is empty`);
      parts.push(ops.map(([op, v]) => comparison(field, name, op, v, params)).join(' AND '));
    } else {
      parts.push(equality(field, value, params));
    }
  }
  return parts.length === 0 ? '1' : parts.join(' AND ');
}

/** Translates an X-Filter header value into SQL over the stored JSON, rejecting anything unusable with 400. */
export function parseFilter(header: string | string[] | undefined, fields: FilterFields): SqlFilter | undefined {
  if (header === undefined || header === '') return undefined;
  if (Array.isArray(header)) throw fail('send one X-Filter header');
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    throw fail('X-Filter is not valid JSON');
  }
  if (!isObject(parsed)) throw fail('X-Filter must be a JSON object');
  const params: unknown[] = [];
  const where = clause(parsed, fields, params);
  let orderBy: string | undefined;
  const orderField = parsed['+order_by'];
  const order = parsed['+order'];
  if (order !== undefined && orderField === undefined) throw fail('+order needs +order_by');
  if (orderField !== undefined) {
    if (typeof orderField !== 'string' || !fields[orderField]) throw fail(`cannot order by ${String(orderField)}: not a filterable field`);
    if (order !== undefined && order !== 'asc' && order !== 'desc') throw fail('+order must be asc or desc');
    orderBy = `json_extract(data, '${fields[orderField]!.path}') ${order === 'desc' ? 'DESC' : 'ASC'}`;
  }
  return { where, params, orderBy };
}
