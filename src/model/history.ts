/**
 * What changed on a record between two sightings: its fields flattened to
 * dotted names, a list of words (tags) as what was added and removed, any
 * other value as before → after. Read from records as the API sends them.
 */

export interface FieldChange {
  field: string;
  /** "running → offline", "+ web − old". */
  text: string;
}

/** Changes on every write, so they say nothing of their own: the time of the entry says it. */
const IGNORED = new Set(['updated']);

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Leaves of a record by dotted name; arrays are leaves. */
function flatten(value: unknown, prefix: string, out: Map<string, unknown>): Map<string, unknown> {
  if (!isPlainObject(value)) {
    if (prefix) out.set(prefix, value);
    return out;
  }
  for (const [key, v] of Object.entries(value)) {
    if (!prefix && IGNORED.has(key)) continue;
    flatten(v, prefix ? `${prefix}.${key}` : key, out);
  }
  return out;
}

const MAX_VALUE = 60;

function show(v: unknown): string {
  const text = v === undefined ? '(none)' : typeof v === 'string' ? v : JSON.stringify(v);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

const words = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number') ? v.map(String) : undefined);

function change(before: unknown, after: unknown): string | undefined {
  const a = words(before);
  const b = words(after);
  if (a && b) {
    const added = b.filter((x) => !a.includes(x));
    const removed = a.filter((x) => !b.includes(x));
    if (!added.length && !removed.length) return a.join() === b.join() ? undefined : 'reordered';
    return [...added.map((x) => `+ ${x}`), ...removed.map((x) => `− ${x}`)].join(' ');
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return undefined;
  return `${show(before)} → ${show(after)}`;
}

/** Whether two records hold the same values, without building anything: most records are unchanged at a refresh. */
export function sameRecord(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameRecord(a[i], other[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !sameRecord((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  return true;
}

/** The fields that differ from one sighting of a record to the next, in the newer record's field order. */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const a = flatten(before, '', new Map());
  const b = flatten(after, '', new Map());
  const fields = [...b.keys(), ...[...a.keys()].filter((k) => !b.has(k))];
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const text = change(a.get(field), b.get(field));
    if (text !== undefined) changes.push({ field, text });
  }
  return changes;
}

export const changeLine = (c: FieldChange) => `${c.field}: ${c.text}`;
