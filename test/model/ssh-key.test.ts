import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sshKey } from '../../src/model/formats.js';
import type { RunningService } from '../../src/server/service.js';
import { call, errorFields, startTestService } from '../helpers/service.js';

/** An OpenSSH public key line: the blob is length-prefixed strings, the type first (RFC 4253 §6.6). */
function line(type: string, ...parts: Buffer[]): string {
  const str = (b: Buffer) => Buffer.concat([lengthOf(b), b]);
  return `${type} ${Buffer.concat([str(Buffer.from(type)), ...parts.map(str)]).toString('base64')} me@host`;
}
const lengthOf = (b: Buffer) => {
  const n = Buffer.alloc(4);
  n.writeUInt32BE(b.length, 0);
  return n;
};
const ed25519 = () => {
  const der = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
  return line('ssh-ed25519', der.subarray(der.length - 32));
};
const rsa = () => {
  const { n, e } = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
  return line('ssh-rsa', Buffer.from(e!, 'base64url'), Buffer.concat([Buffer.alloc(1), Buffer.from(n!, 'base64url')]));
};

describe('an SSH public key', () => {
  it('is accepted when its base64 decodes to a key blob of the type it names', () => {
    expect(sshKey(ed25519())).toBeNull();
    expect(sshKey(rsa())).toBeNull();
    expect(sshKey(ed25519().replace(/ me@host$/, ''))).toBeNull();
  });

  it('is refused when its data is not base64 of a key, or names another type', () => {
    expect(sshKey('ssh-ed25519 AAAAbroken')).toMatch(/not valid base64 of a key/);
    expect(sshKey('ssh-ed25519 AAAA')).toMatch(/not valid base64 of a key/);
    expect(sshKey(`ssh-ed25519 ${ed25519().split(' ')[1]!.slice(0, -8)}`)).toMatch(/not valid base64/);
    expect(sshKey(`ssh-rsa ${ed25519().split(' ')[1]}`)).toBe('not an SSH public key: its key data is of type "ssh-ed25519", not ssh-rsa');
    expect(sshKey('ssh-ed25519 ')).toMatch(/expected "ssh-ed25519 AAAA… comment"/);
  });
});

describe('the service', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc?.close());

  it('refuses a malformed key and takes a real one', async () => {
    const bad = await call(svc, 'POST', '/profile/sshkeys', { body: { label: 'broken', ssh_key: 'ssh-ed25519 AAAAbroken' } });
    expect(bad.status).toBe(400);
    expect(errorFields(bad)).toEqual(['ssh_key']);
    const good = await call(svc, 'POST', '/profile/sshkeys', { body: { label: 'laptop', ssh_key: ed25519() } });
    expect(good.status).toBe(200);
  });
});
