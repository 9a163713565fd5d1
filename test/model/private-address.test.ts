import ipaddr from 'ipaddr.js';
import { describe, expect, it, vi } from 'vitest';
import { isPrivateAddress } from '../../src/model/formats.js';

describe('isPrivateAddress', () => {
  it('private, unique-local, loopback and link-local addresses are private, with or without a port; public and malformed ones are not', () => {
    expect(['192.168.1.5', '192.168.1.5:80', '10.0.0.1', 'fd00::1', '127.0.0.1', 'fe80::1'].map(isPrivateAddress)).toEqual([true, true, true, true, true, true]);
    expect(['203.0.113.9', '2600:3c00::1', 'not-an-address', ''].map(isPrivateAddress)).toEqual([false, false, false, false]);
  });

  it('parses an address once: a list looked at again asks again for the same ones', () => {
    const parse = vi.spyOn(ipaddr, 'isValid');
    try {
      const addresses = Array.from({ length: 50 }, (_, i) => `192.168.7.${i}`);
      expect(addresses.every(isPrivateAddress)).toBe(true);
      const once = parse.mock.calls.length;
      expect(once).toBeGreaterThanOrEqual(50);
      expect(addresses.every(isPrivateAddress)).toBe(true);
      expect(parse.mock.calls.length).toBe(once);
    } finally {
      parse.mockRestore();
    }
  });
});
