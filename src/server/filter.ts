import { own } from '../model/schema.js';
import { ApiError } from './errors.js';
import { parseJsonInput } from './json-input.js';
import type { SqlValue } from './sqlite.js';

/** Comparisons in one X-Filter, all levels together: SQLite refuses an expression nested 1000 deep, and no list needs near 100. */
export const FILTER_MAX_TERMS = 100;
/** JSON nesting of one X-Filter: +and and +or inside each other, a nested key, its operators. */
export const FILTER_MAX_DEPTH = 12;

/** Where a filterable field lives in the stored JSON, and whether it holds an array (tags). */
export interface FilterField {
  path: string;
  array?: boolean;
  /** A yes/no condition on the caller, not a stored field (the scripts' `mine`): equality with true or false only, never an order. */
  flag?: (on: boolean) => SqlFilter;
}

export type FilterFields = Record<string, FilterField>;

export interface SqlFilter {
  where: string;
  params: SqlValue[];
  orderBy?: string;
}

const fail = (reason: string) => new ApiError(400, [{ field: 'X-Filter', reason }]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Builds a filter field map from names; dotted names address nested keys. */
export function filterFields(names: string[], arrays: string[] = []): FilterFields {
  return Object.fromEntries(names.map((n) => [n, { path: `$.${n}`, array: arrays.includes(n) }]));
}

const sqlValue = (v: unknown): SqlValue => (typeof v === 'boolean' ? (v ? 1 : 0) : (v as SqlValue));

function comparison(field: FilterField, name: string, op: string, value: unknown, params: SqlValue[]): string {
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

function equality(field: FilterField, value: unknown, params: SqlValue[]): string {
  if (value !== null && typeof value === 'object') throw fail('a filter value must be a string, number, boolean or null');
  params.push(sqlValue(value));
  if (field.array) return `EXISTS (SELECT 1 FROM json_each(data, '${field.path}') WHERE value = ?)`;
  return `json_extract(data, '${field.path}') IS ?`;
}

/** What one parse has built so far: the bound values, and how many comparisons it holds. */
interface Building {
  params: SqlValue[];
  terms: number;
}

function countTerm(b: Building): void {
  if (++b.terms > FILTER_MAX_TERMS) throw fail(`a filter may hold at most ${FILTER_MAX_TERMS} comparisons`);
}

function clause(filter: unknown, fields: FilterFields, b: Building, prefix = ''): string {
  if (!isObject(filter)) throw fail('a filter must be a JSON object');
  const parts: string[] = [];
  for (const [key, value] of Object.entries(filter)) {
    if (key === '+order_by' || key === '+order') continue;
    if (key === '+and' || key === '+or') {
      if (!Array.isArray(value) || value.length === 0) throw fail(`${key} needs a non-empty array of filters`);
      const inner = value.map((f) => `(${clause(f, fields, b)})`);
      parts.push(inner.join(key === '+and' ? ' AND ' : ' OR '));
      continue;
    }
    if (key.startsWith('+')) throw fail(`${key} is not a filter operator`);
    const name = prefix + key;
    const field = own(fields, name);
    if (isObject(value) && !field) {
      // A nested key such as entity.id is addressed by nesting objects.
      parts.push(clause(value, fields, b, `${name}.`));
      continue;
    }
    if (!field) throw fail(`${name} is not a filterable field`);
    if (field.flag) {
      if (typeof value !== 'boolean') throw fail(`${name} must be true or false`);
      countTerm(b);
      const condition = field.flag(value);
      b.params.push(...condition.params);
      parts.push(condition.where);
      continue;
    }
    if (isObject(value)) {
      const ops = Object.entries(value);
      if (ops.length === 0) throw fail(`the filter on ${name} is empty`);
      parts.push(
        ops
          .map(([op, v]) => {
            countTerm(b);
            return comparison(field, name, op, v, b.params);
          })
          .join(' AND '),
      );
    } else {
      countTerm(b);
      parts.push(equality(field, value, b.params));
    }
  }
  if (parts.length > 0) return parts.join(' AND ');
  // An empty filter is a term of its own: a thousand of them in one +or nest as deep as a thousand comparisons.
  countTerm(b);
  return '1';
}

/** Translates an X-Filter header value into SQL over the stored JSON, rejecting anything unusable with 400. */
export function parseFilter(header: string | string[] | undefined, fields: FilterFields): SqlFilter | undefined {
  if (header === undefined || header === '') return undefined;
  if (Array.isArray(header)) throw fail('send one X-Filter header');
  // Node reads header bytes as Latin-1; clients send JSON's UTF-8.
  const text = /[^\x00-\x7f]/.test(header) ? Buffer.from(header, 'latin1').toString('utf8') : header;
  const parsed = parseJsonInput(text, { name: 'X-Filter', maxDepth: FILTER_MAX_DEPTH, field: 'X-Filter' });
  if (!isObject(parsed)) throw fail('X-Filter must be a JSON object');
  const building: Building = { params: [], terms: 0 };
  const where = clause(parsed, fields, building);
  let orderBy: string | undefined;
  const orderField = parsed['+order_by'];
  const order = parsed['+order'];
  if (order !== undefined && orderField === undefined) throw fail('+order needs +order_by');
  if (orderField !== undefined) {
    const field = typeof orderField === 'string' ? own(fields, orderField) : undefined;
    if (!field || field.flag) throw fail(`cannot order by ${typeof orderField === 'string' ? orderField.slice(0, 100) : 'a non-string'}: not a filterable field`);
    if (order !== undefined && order !== 'asc' && order !== 'desc') throw fail('+order must be asc or desc');
    orderBy = `json_extract(data, '${field.path}') ${order === 'desc' ? 'DESC' : 'ASC'}`;
  }
  return { where, params: building.params, orderBy };
}
