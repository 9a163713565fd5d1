import type { Root } from '../api/client.js';
import { curlCommand } from '../api/curl.js';
import { isRecord } from '../model/response.js';

/** One thing Y can copy: its menu line and the text that goes to the clipboard. */
export interface CopyItem {
  id: string;
  label: string;
  /** The message's words: "Copied the label". */
  what: string;
  key: string;
  text: string;
}

/** What Y is about: the record, where the API serves it by itself, and its ssh command line for an instance. */
export interface CopySubject {
  record: unknown;
  /** The record's own endpoint (GET), when it has one. */
  path?: string;
  root?: Root;
  /** The ssh command line, for an instance. */
  ssh?: string;
}

/** Where the curl line sends its request. */
export interface ApiRoots {
  baseUrl: string;
  betaUrl: string;
}

const strings = (v: unknown): string[] => (typeof v === 'string' && v ? [v] : Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s !== '') : []);

/** An instance's IPv6 is its SLAAC address written with /128: the address alone is what gets pasted. */
const bareIpv6 = (v: string) => v.replace(/\/128$/, '');

/** The addresses a record carries: its IPv4s (public first, as listed), its IPv6, or the one address it is about. */
function addresses(record: Record<string, unknown>): Omit<CopyItem, 'id'>[] {
  const v4 = strings(record.ipv4).map((text, i) => ({ label: 'IPv4', what: 'the IPv4 address', key: i === 0 ? '4' : '', text }));
  const v6 = strings(record.ipv6).map((text, i) => ({ label: 'IPv6', what: 'the IPv6 address', key: i === 0 ? '6' : '', text: bareIpv6(text) }));
  const own = strings(record.address).map((text) => ({ label: 'address', what: 'the address', key: 'a', text }));
  return [...own, ...v4, ...v6];
}

/**
 * The menu of Y, in a fixed order: ID, label, addresses, ssh line, JSON,
 * curl. The curl line names the token as $VM_TOKEN, never its value.
 */
export function copyItems(subject: CopySubject, roots: ApiRoots): CopyItem[] {
  const { record } = subject;
  const items: CopyItem[] = [];
  if (isRecord(record)) {
    const id = Object.hasOwn(record, 'id') ? record.id : undefined;
    if (typeof id === 'number' || (typeof id === 'string' && id)) items.push({ id: 'id', label: 'ID', what: 'the ID', key: 'i', text: String(id) });
    if (typeof record.label === 'string' && record.label) items.push({ id: 'label', label: 'label', what: 'the label', key: 'l', text: record.label });
    addresses(record).forEach((a, i) => items.push({ id: `address-${i}`, ...a }));
  }
  if (subject.ssh) items.push({ id: 'ssh', label: 'ssh command', what: 'the ssh command', key: 's', text: subject.ssh });
  if (record !== undefined) items.push({ id: 'json', label: 'JSON', what: 'the record as JSON', key: 'r', text: JSON.stringify(record, null, 2) });
  if (subject.path) {
    const url = (subject.root === 'beta' ? roots.betaUrl : roots.baseUrl) + subject.path;
    items.push({ id: 'curl', label: 'curl', what: 'the curl command', key: 'c', text: curlCommand({ method: 'GET', url }) });
  }
  return items;
}
