import ipaddr from 'ipaddr.js';
import { createRequire } from 'node:module';

/** String checks shared by the service and the forms: each returns a reason or null. */

const SEPARATOR_RUN = /[-_.]{2}/;

/** The seed's "no doubled dash, underscore, period": the same separator twice (`ab-_cd` has none doubled). */
const DOUBLED_SEPARATOR = /--|__|\.\./;

/** Instance labels: start with a letter; alphanumerics, dash, underscore, period; no doubled separator. */
export function instanceLabel(v: string): string | null {
  if (!/^[A-Za-z]/.test(v)) return 'label must start with a letter';
  if (!/^[A-Za-z0-9._-]+$/.test(v)) return 'label may contain only letters, digits, dashes, underscores and periods';
  if (DOUBLED_SEPARATOR.test(v)) return 'label must not contain a doubled dash, underscore or period (--, __, ..)';
  return null;
}

/** Firewall labels: start and end with an alphanumeric; alphanumerics, dash, underscore, period; no doubled separators. */
export function firewallLabel(v: string): string | null {
  if (!/^[A-Za-z0-9]/.test(v) || !/[A-Za-z0-9]$/.test(v)) return 'label must start and end with a letter or digit';
  if (!/^[A-Za-z0-9._-]+$/.test(v)) return 'label may contain only letters, digits, dashes, underscores and periods';
  if (SEPARATOR_RUN.test(v)) return 'label must not contain two dashes, underscores or periods in a row';
  return null;
}

export function charset(pattern: RegExp, description: string) {
  return (v: string): string | null => (pattern.test(v) ? null : `may contain only ${description}`);
}

export const MAX_PORT_PIECES = 15;

/**
 * The port-string grammar: a port, a range or a comma-separated list (a space
 * may follow a comma); 1..65535 without leading zeros; a range's end above its
 * start; at most 15 pieces, a range counting as two.
 */
export function portString(v: string): string | null {
  if (v.trim() === '') return 'ports must name at least one port';
  const parts = v.split(/, ?/);
  let pieces = 0;
  for (const part of parts) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return `ports: "${part}" is not a port or a range`;
    const ends = [m[1], m[2]].filter((x): x is string => x !== undefined);
    for (const p of ends) {
      if (p.length > 1 && p.startsWith('0')) return `ports: ${p} has a leading zero`;
      const n = Number(p);
      if (n < 1 || n > 65535) return `ports: ${p} is outside 1..65535`;
    }
    if (ends.length === 2 && Number(ends[1]) <= Number(ends[0])) return `ports: the range ${part} must end above its start`;
    pieces += ends.length;
  }
  if (pieces > MAX_PORT_PIECES) return `ports may have at most ${MAX_PORT_PIECES} pieces (a range counts as two)`;
  return null;
}

export function ipAddress(v: string): string | null {
  return ipaddr.isValid(v) ? null : `${v} is not an IP address`;
}

export function ipv4Address(v: string): string | null {
  return ipaddr.IPv4.isValidFourPartDecimal(v) ? null : `${v} is not an IPv4 address`;
}

/** An address or a network in CIDR form, of the given family. */
export function addressOrNetwork(family: 'ipv4' | 'ipv6') {
  return (v: string): string | null => {
    const [addr, bits] = v.split('/');
    const ok = family === 'ipv4' ? ipaddr.IPv4.isValidFourPartDecimal(addr ?? '') : ipaddr.IPv6.isValid(addr ?? '');
    if (!ok) return `${v} is not an ${family === 'ipv4' ? 'IPv4' : 'IPv6'} address or network`;
    if (bits !== undefined) {
      const max = family === 'ipv4' ? 32 : 128;
      if (!/^\d+$/.test(bits) || Number(bits) > max) return `${v} has an invalid prefix length`;
    }
    return null;
  };
}

/**
 * Whether each address asked about is private: the same addresses are asked
 * about again at each look at a list (its public-address column, the audit's
 * pass over every instance), and parsing 20,000 of them takes ~20 ms.
 */
const privateByAddress = new Map<string, boolean>();
const ADDRESSES_KEPT = 100_000;

export function isPrivateAddress(v: string): boolean {
  let known = privateByAddress.get(v);
  if (known === undefined) {
    // Bounded: the addresses of a few lists of every account seen, not of a day of them.
    if (privateByAddress.size >= ADDRESSES_KEPT) privateByAddress.clear();
    privateByAddress.set(v, (known = privateNow(v)));
  }
  return known;
}

function privateNow(v: string): boolean {
  // A bare IPv6 address ends in :<hex group>, which is not a port.
  const host = ipaddr.isValid(v) ? v : v.replace(/:\d+$/, '');
  if (!ipaddr.isValid(host)) return false;
  const range = ipaddr.parse(host).range();
  return range === 'private' || range === 'uniqueLocal' || range === 'loopback' || range === 'linkLocal';
}

/** Load balancer node address: a private IPv4, with an optional :port. */
export function privateNodeAddress(v: string): string | null {
  const m = /^([\d.]+)(?::(\d+))?$/.exec(v);
  if (!m || !ipaddr.IPv4.isValidFourPartDecimal(m[1]!)) return 'address must be a private IPv4 address, optionally with :port';
  if (m[2] !== undefined && (Number(m[2]) < 1 || Number(m[2]) > 65535)) return 'address port must be 1..65535';
  if (ipaddr.parse(m[1]!).range() !== 'private') return 'address must be a private IP address';
  return null;
}

export function email(v: string): string | null {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) ? null : `${v} is not an email address`;
}

export function url(v: string): string | null {
  try {
    new URL(v);
    return null;
  } catch {
    return `${v} is not a URL`;
  }
}

/** Where a managed service is monitored: a URL, or host:port for tcp. */
export function serviceAddress(v: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) return url(v);
  return /^[^\s/]+(:\d{1,5})?$/.test(v) ? null : 'address must be a URL or host:port';
}

const SSH_KEY = /^(ssh-(rsa|dss|ed25519)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) ([A-Za-z0-9+/]+={0,3})( .*)?$/;

/**
 * The key type a public key's blob names: the blob is a run of
 * length-prefixed strings (RFC 4253 §6.6), the type first, then the key's
 * parts, filling it exactly. Undefined when the text is not base64 of such a
 * blob (broken, or cut short).
 */
function blobKeyType(base64: string): string | undefined {
  const blob = Buffer.from(base64, 'base64');
  // Buffer.from skips what is not base64; a blob that encodes back differently was not one.
  if (blob.toString('base64').replace(/=+$/, '') !== base64.replace(/=+$/, '')) return undefined;
  const parts: Buffer[] = [];
  for (let at = 0; at < blob.length; ) {
    if (at + 4 > blob.length) return undefined;
    const end = at + 4 + blob.readUInt32BE(at);
    if (end > blob.length) return undefined;
    parts.push(blob.subarray(at + 4, end));
    at = end;
  }
  return parts.length >= 2 && parts[0]!.length > 0 ? parts[0]!.toString('latin1') : undefined;
}

/** An SSH public key line: a known type, base64 that decodes to a key blob of that same type, and an optional comment. */
export function sshKey(v: string): string | null {
  const m = SSH_KEY.exec(v.trim());
  if (!m) return 'not an SSH public key (expected "ssh-ed25519 AAAA… comment")';
  const type = blobKeyType(m[5]!);
  if (type === undefined) return 'not an SSH public key: its key data is not valid base64 of a key';
  return type === m[1] ? null : `not an SSH public key: its key data is of type ${JSON.stringify(type.slice(0, 40))}, not ${m[1]}`;
}

export function pemCertificate(v: string): string | null {
  return /-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(v) ? null : 'must be a PEM certificate';
}

export function pemPrivateKey(v: string): string | null {
  return /-----BEGIN ([A-Z]+ )?PRIVATE KEY-----[\s\S]+-----END ([A-Z]+ )?PRIVATE KEY-----/.test(v) ? null : 'must be a PEM private key';
}

export function isoTimestamp(v: string): string | null {
  return /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?Z?$/.test(v) && !Number.isNaN(Date.parse(v)) ? null : 'must be an ISO 8601 date-time';
}

export const PASSWORD_STRENGTH_REASON = 'Password does not meet strength requirement';
const MIN_PASSWORD_SCORE = 2;
let scorer: ((password: string) => number) | undefined;

/**
 * zxcvbn and its dictionaries, loaded on the first password checked: loading
 * them takes ~170 ms, too much for every start of the app. Synchronous, so
 * the check stays a plain rule of the model.
 */
function passwordScorer(): (password: string) => number {
  if (!scorer) {
    const load = createRequire(import.meta.url);
    const core = load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
    const common = load('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    core.zxcvbnOptions.setOptions({ dictionary: common.dictionary, graphs: common.adjacencyGraphs });
    scorer = (password) => core.zxcvbn(password).score;
  }
  return scorer;
}

/** The seed's strength check for root passwords; the reason text is the seed's own. */
export function passwordStrength(v: string): string | null {
  if (v.length < 7 || v.length > 128) return PASSWORD_STRENGTH_REASON;
  return passwordScorer()(v) >= MIN_PASSWORD_SCORE ? null : PASSWORD_STRENGTH_REASON;
}

/** OAuth scope strings: `*`, or space/comma separated `<group>:read_only|read_write`. */
export const SCOPE_GROUPS = ['account', 'nodebalancers', 'object_storage', 'firewall', 'ips', 'images', 'stackscripts', 'vms'] as const;

export function scopeString(v: string): string | null {
  if (v.trim() === '*') return null;
  const parts = v.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) return 'scopes must name at least one scope, or *';
  for (const p of parts) {
    const [group, level] = p.split(':');
    if (!(SCOPE_GROUPS as readonly string[]).includes(group ?? '') || (level !== 'read_only' && level !== 'read_write')) {
      return `${p} is not a scope (expected <group>:read_only or <group>:read_write, or *)`;
    }
  }
  return null;
}
