import ipaddr from 'ipaddr.js';

/**
 * Matching one row against the words of a search: every word must be in the
 * row's label, id, addresses, tags or names (any case), and a word that is
 * an IP address also matches an address written otherwise (`2600:3c03::1`
 * for `2600:3c03:0:0::1`) and a range that holds it (an IPv6 /64).
 */

/** The fields a search reads, dotted for nested ones; arrays are read whole. */
export const SEARCH_FIELDS = ['id', 'label', 'ipv4', 'ipv6', 'address', 'range', 'tags', 'hostname', 'username', 'email', 'name', 'entity.label'] as const;

/** Fields whose values may be addresses, written `addr` or `addr/prefix`. */
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

/** What a row is found by, as "field value" pairs: for a hit's "matched" column. */
function searchFields(row: Row): [string, string][] {
  return SEARCH_FIELDS.flatMap((k) => strings(read(row, k)).map((s): [string, string] => [k, s]));
}

const PATHS = SEARCH_FIELDS.map((k) => k.split('.'));

/** A row's searchable text in lower case, one string, so a word is one `includes` per row. */
function searchText(row: Row): string {
  // Every value between two separators, so a whole value is found as `\0value\0`.
  let t = '\u0000';
  for (const path of PATHS) {
    let v: unknown = row;
    for (const part of path) v = typeof v === 'object' && v !== null && Object.hasOwn(v, part) ? (v as Row)[part] : undefined;
    if (typeof v === 'string' || typeof v === 'number') t += `${v}\u0000`;
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string' || typeof x === 'number') t += `${x}\u0000`;
  }
  return t.toLowerCase();
}

/**
 * The rows' texts, made once per list as the store holds it: a refetch
 * brings a new array and its texts are made again, on the first search.
 */
const textsCache = new WeakMap<readonly Row[], string[]>();
export function textsOf(rows: readonly Row[]): string[] {
  let texts = textsCache.get(rows);
  if (!texts) {
    texts = rows.map(searchText);
    textsCache.set(rows, texts);
  }
  return texts;
}

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** An IPv6 address value as a range: `addr/prefix`, or a bare address (its own /128, unless the row gives a prefix). */
function cidrOf(value: string, prefix?: unknown): Cidr | undefined {
  const [host = '', len] = value.split('/');
  if (!ipaddr.IPv6.isValid(host)) return undefined;
  const ip = ipaddr.parse(host);
  const max = 128;
  const bits = len !== undefined ? Number(len) : typeof prefix === 'number' ? prefix : max;
  if (!Number.isInteger(bits) || bits < 0 || bits > max) return undefined;
  return [ip, bits];
}

/**
 * The ranges a row holds: IPv6 ones (a /64, a pool). A public IPv4 address's
 * /24 is its subnet, not something it holds, and an IPv4 address is written
 * one way only, so the text finds those; an IPv6 address has many spellings,
 * so an IPv6 word is also compared parsed, here, against single addresses too.
 */
const cidrCache = new WeakMap<object, Cidr[]>();
function cidrsOf(row: Row): Cidr[] {
  let c = cidrCache.get(row);
  if (!c) {
    const prefix = read(row, 'prefix');
    c = ADDRESS_FIELDS.flatMap((k) => strings(read(row, k)).flatMap((v): Cidr[] => {
      if (!v.includes(':')) return [];
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
  for (const w of words) if (w.includes(':') && ipaddr.IPv6.isValid(w)) ips.set(w, ipaddr.parse(w));
  return { words, ips };
}

const holds = ([net, bits]: Cidr, ip: ipaddr.IPv4 | ipaddr.IPv6) => net.kind() === ip.kind() && ip.match(net, bits);

/** The row (its text from `textsOf`) has every word, or holds the address a word is. */
export function matchesText(text: string, row: Row, q: Query): boolean {
  if (q.words.length === 0) return false;
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

/** Matched the whole text exactly (a label, an id, an address, one with its prefix): such hits come first. */
export function exactText(text: string, q: Query): boolean {
  const whole = q.words.join(' ');
  return text.includes(`\u0000${whole}\u0000`) || text.includes(`\u0000${whole}/`);
}
