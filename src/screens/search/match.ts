import ipaddr from 'ipaddr.js';

/**
 * Matching one row against the words of a search: every word must be in the
 * row's label, id, addresses, tags or names (any case), and a word that is
 * an IP address also matches an address written otherwise (`2600:3c03::1`
 * for `2600:3c03:0:0::1`) and a range that holds it (an IPv6 /64).
 */

/** The fields a search reads, dotted for nested ones; arrays are read whole. */
export const SEARCH_FIELDS = ['id', 'label', 'ipv4', 'ipv6', 'address', 'range', 'tags', 'hostname', 'username', 'email', 'name', 'entity.label'] as const;

/** Fields whose values may be addresses, written `addr`, `addr/prefix` or `addr:port`. */
const ADDRESS_FIELDS = ['ipv4', 'ipv6', 'address', 'range'] as const;

type Row = Record<string, unknown>;

const read = (row: Row, path: string): unknown => {
  let v: unknown = row;
  for (const part of path.split('.')) {
    if (typeof v !== 'object' || v === null || !Object.hasOwn(v, part)) return undefined;
    v = (v as Row)[part];
  }
  return v;
};

const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : typeof v === 'number' ? [String(v)] : Array.isArray(v) ? v.flatMap((x) => (typeof x === 'string' || typeof x === 'number' ? [String(x)] : [])) : [];

/** What a row is found by, as "field value" pairs; computed once per row object. */
const fieldsCache = new WeakMap<object, [string, string][]>();
export function searchFields(row: Row): [string, string][] {
  let f = fieldsCache.get(row);
  if (!f) {
    f = SEARCH_FIELDS.flatMap((k) => strings(read(row, k)).map((s): [string, string] => [k, s]));
    fieldsCache.set(row, f);
  }
  return f;
}

/** The row's searchable text in lower case, one string, so a word is one `includes` per row. */
const textCache = new WeakMap<object, string>();
function searchText(row: Row): string {
  let t = textCache.get(row);
  if (t === undefined) {
    t = searchFields(row)
      .map(([, v]) => v.toLowerCase())
      .join('\u0000');
    textCache.set(row, t);
  }
  return t;
}

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An address value as a range: `addr/prefix`, a bare address (its own /32 or /128), `addr:port` (IPv4 only). */
function cidrOf(value: string, prefix?: unknown): Cidr | undefined {
  const [addr = '', len] = value.split('/');
  const host = /^\d+\.\d+\.\d+\.\d+:\d+$/.test(addr) ? addr.slice(0, addr.lastIndexOf(':')) : addr;
  if (!ipaddr.isValid(host)) return undefined;
  const ip = ipaddr.parse(host);
  const max = ip.kind() === 'ipv4' ? 32 : 128;
  const bits = len !== undefined ? Number(len) : typeof prefix === 'number' ? prefix : max;
  if (!Number.isInteger(bits) || bits < 0 || bits > max) return undefined;
  // A public IPv4 address's /24 is its subnet, not something it holds: only IPv6 ranges hold addresses.
  return [ip, ip.kind() === 'ipv4' ? 32 : bits];
}

const cidrCache = new WeakMap<object, Cidr[]>();
function cidrsOf(row: Row): Cidr[] {
  let c = cidrCache.get(row);
  if (!c) {
    const prefix = read(row, 'prefix');
    c = ADDRESS_FIELDS.flatMap((k) => strings(read(row, k)).flatMap((v): Cidr[] => {
      const cidr = cidrOf(v, k === 'range' || k === 'address' ? prefix : undefined);
      return cidr ? [cidr] : [];
    }));
    cidrCache.set(row, c);
  }
  return c;
}

/** A search, parsed once for every row it is tried on. */
export interface Query {
  words: string[];
  /** The words that are addresses, parsed. */
  ips: Map<string, ipaddr.IPv4 | ipaddr.IPv6>;
}

export function parseQuery(text: string): Query {
  const words = text.toLowerCase().split(/\s+/).filter(Boolean);
  const ips = new Map<string, ipaddr.IPv4 | ipaddr.IPv6>();
  for (const w of words) if (ipaddr.isValid(w) && (w.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(w))) ips.set(w, ipaddr.parse(w));
  return { words, ips };
}

const holds = ([net, bits]: Cidr, ip: ipaddr.IPv4 | ipaddr.IPv6) => net.kind() === ip.kind() && ip.match(net, bits);

export function matches(row: Row, q: Query): boolean {
  if (q.words.length === 0) return false;
  const text = searchText(row);
  for (const w of q.words) {
    if (text.includes(w)) continue;
    const ip = q.ips.get(w);
    if (!ip || !cidrsOf(row).some((c) => holds(c, ip))) return false;
  }
  return true;
}

/** The field that matched the first word, for the hit's "matched" column: `ipv4 45.79.0.7`, `range 2600:…::/64`. */
export function matchedBy(row: Row, q: Query): string {
  const [w] = q.words;
  if (!w) return '';
  const field = searchFields(row).find(([, v]) => v.toLowerCase().includes(w));
  if (field) return `${field[0]} ${field[1]}`;
  const ip = q.ips.get(w);
  const prefix = read(row, 'prefix');
  for (const k of ADDRESS_FIELDS) {
    for (const v of strings(read(row, k))) {
      const c = cidrOf(v, k === 'range' || k === 'address' ? prefix : undefined);
      if (c && ip && holds(c, ip)) return `${k} ${c[0].toString()}/${c[1]}`;
    }
  }
  return '';
}

/** Matched the whole text exactly (a label, an id, an address): such hits come first. */
export function exact(row: Row, q: Query): boolean {
  const whole = q.words.join(' ');
  return searchFields(row).some(([, v]) => v.toLowerCase() === whole || v.toLowerCase().split(/[/]/)[0] === whole);
}
