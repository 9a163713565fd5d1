import type { FieldSpec } from './schema.js';
import { isRecord } from './response.js';


/**
 * The fields of a record its schema does not know (what a later release
 * added: a config's interfaces, an address's vpc_nat_1_1), with their paths,
 * at any depth the schema describes. Free-form parts (maps, JSON) are known
 * whole. `shown` are paths a view already draws (a detail's own derived
 * fields): nothing under them is reported again.
 */
export function unknownFields(fields: Record<string, FieldSpec>, record: unknown, shown: readonly string[] = []): [string, unknown][] {
  const out: [string, unknown][] = [];
  const drawn = (path: string) => shown.some((s) => path === s || path.startsWith(`${s}.`));
  const walk = (specs: Record<string, FieldSpec>, value: Record<string, unknown>, prefix: string) => {
    for (const [key, v] of Object.entries(value)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (drawn(path)) continue;
      const spec = Object.hasOwn(specs, key) ? specs[key] : undefined;
      if (!spec) out.push([path, v]);
      else if (spec.kind === 'object' && spec.fields && isRecord(v)) walk(spec.fields, v, path);
      else if (spec.kind === 'array' && spec.items?.fields && Array.isArray(v)) {
        v.forEach((item, i) => isRecord(item) && walk(spec.items!.fields!, item, `${path}.${i}`));
      }
    }
  };
  if (isRecord(record)) walk(fields, record, '');
  return out;
}
