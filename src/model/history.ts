import { isRecord } from './response.js';

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
  return `${show(before)} → ${show(after)}`;
}

/** Whether two records hold the same values, without building anything (no key lists): most records are unchanged at a refresh. */
export function sameRecord(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameRecord(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  // Records come from JSON: their keys are their own, none inherited.
  let keys = 0;
  for (const k in a) {
    if (!Object.hasOwn(b, k) || !sameRecord((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
    keys++;
  }
  for (const _ in b) keys--;
  return keys === 0;
}

/** A value with no fields below it (arrays are leaves); undefined is no value at all: the field is absent. */
const isLeaf = (v: unknown) => v !== undefined && !isRecord(v);

/**
 * The changed leaves at and below `name`: those `after` has in its order into
 * `out`, those only `before` has into `gone`. Equal branches are passed over
 * whole, so an unchanged field costs a comparison and nothing is built for it.
 */
function walk(before: unknown, after: unknown, name: string, out: FieldChange[], gone: FieldChange[]): void {
  if (sameRecord(before, after)) return;
  const a = isRecord(before) ? before : undefined;
  const b = isRecord(after) ? after : undefined;
  const field = (key: string) => (name ? `${name}.${key}` : key);
  const kept = (key: string) => name !== '' || !IGNORED.has(key);
  const add = (to: FieldChange[], was: unknown, is: unknown) => {
    const text = change(was, is);
    if (text !== undefined) to.push({ field: name, text });
  };
  if (b) {
    for (const [key, v] of Object.entries(b)) if (kept(key)) walk(a && Object.hasOwn(a, key) ? a[key] : undefined, v, field(key), out, gone);
  } else if (isLeaf(after) && name) add(out, isLeaf(before) ? before : undefined, after);
  if (a) {
    for (const [key, v] of Object.entries(a)) if (kept(key) && !(b && Object.hasOwn(b, key))) walk(v, undefined, field(key), gone, gone);
  } else if (isLeaf(before) && !isLeaf(after) && name) add(gone, before, undefined);
}

/** The fields that differ from one sighting of a record to the next, by dotted name: in the newer record's field order, then those it no longer has. */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] {
  const out: FieldChange[] = [];
  const gone: FieldChange[] = [];
  walk(before, after, '', out, gone);
  return [...out, ...gone];
}

export const changeLine = (c: FieldChange) => `${c.field}: ${c.text}`;
