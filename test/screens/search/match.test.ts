import { describe, expect, it } from 'vitest';
import { exactText, matchedBy, matchesText, parseQuery, textsOf } from '../../../src/screens/search/match.js';

const vm = { id: 41001, label: 'web-1', ipv4: ['45.79.0.7', '192.168.128.4'], ipv6: '2600:3c00::f03c:91ff:fe24:3a2f/128', tags: ['prod', 'frontend'], region: 'us-east' };
const range = { range: '2600:3c00:e001::', prefix: 64, region: 'us-east', route_target: '2600:3c00::f03c:91ff:fe24:3a2f' };
const v4 = { address: '45.79.0.7', prefix: 24, type: 'ipv4', region: 'us-east' };
const node = { id: 7, label: 'web-1-node', address: '192.168.128.4:80' };

const hit = (row: Record<string, unknown>, text: string) => matchesText(textsOf([row])[0]!, row, parseQuery(text));

describe('search matching', () => {
  it('every word must match, in any case, in the label, id, addresses or tags', () => {
    expect(hit(vm, 'WEB-1')).toBe(true);
    expect(hit(vm, '41001')).toBe(true);
    expect(hit(vm, 'prod web')).toBe(true);
    expect(hit(vm, 'prod db')).toBe(false);
    // The region is no name of the item: every instance there would be a hit.
    expect(hit(vm, 'us-east')).toBe(false);
  });

  it('an IPv4 address is found where it is written, a node\'s address:port too; a /24 holds no other address', () => {
    expect(hit(vm, '45.79.0.7')).toBe(true);
    expect(hit(node, '192.168.128.4')).toBe(true);
    expect(hit(v4, '45.79.0.8')).toBe(false);
  });

  it('an IPv6 address matches however it is written, and inside a range', () => {
    expect(hit(vm, '2600:3c00:0:0:f03c:91ff:fe24:3a2f')).toBe(true);
    expect(hit(range, '2600:3c00:e001::abcd')).toBe(true);
    expect(hit(range, '2600:3c00:e001:0:1:2:3:4')).toBe(true);
    expect(hit(range, '2600:3c00:e002::1')).toBe(false);
    expect(matchedBy(range, parseQuery('2600:3c00:e001::abcd'))).toBe('range 2600:3c00:e001::/64');
  });

  it('a whole value is an exact match (an address with its prefix too); a part is not', () => {
    const [text] = textsOf([vm]);
    expect(exactText(text!, parseQuery('web-1'))).toBe(true);
    expect(exactText(text!, parseQuery('2600:3c00::f03c:91ff:fe24:3a2f'))).toBe(true);
    expect(exactText(text!, parseQuery('web'))).toBe(false);
  });
});
