import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/**
 * Secrets at rest: sealed with AES-256-GCM under a key that is not in the
 * data file (see data-file.ts, loadSealKey), so the file alone does not give
 * them away. A sealed value is one string, `sealed:v1:<iv>.<tag>.<data>`
 * (base64url): it fits wherever the plain text was, and a PEM, a TOTP secret
 * or a token never looks like one.
 */

const PREFIX = 'sealed:v1:';
const SEALED = /^sealed:v1:([\w-]{16})\.([\w-]{22})\.([\w-]*)$/;

export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(PREFIX);

export class Sealer {
  private readonly sealKey: Buffer;

  constructor(private readonly key: Buffer) {
    this.sealKey = this.derive('seal');
  }

  /** A key for one purpose, so no two purposes share a key. */
  derive(purpose: string): Buffer {
    return createHmac('sha256', this.key).update(`vmtui:${purpose}`).digest();
  }

  /** A short, one-way fingerprint of the key, kept in the data file to tell its own key from another. */
  fingerprint(): string {
    return this.derive('fingerprint').toString('hex').slice(0, 16);
  }

  seal(text: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.sealKey, iv);
    const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
    return `${PREFIX}${iv.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}.${data.toString('base64url')}`;
  }

  /** The plain text; throws when the value was not sealed with this key or was altered. */
  unseal(sealed: string): string {
    const m = SEALED.exec(sealed);
    if (!m) throw new Error('not a sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.sealKey, Buffer.from(m[1]!, 'base64url'));
    decipher.setAuthTag(Buffer.from(m[2]!, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(m[3]!, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Seals a plain value; one sealed already (or null) is kept as it is. */
  sealed<T extends string | null | undefined>(value: T): T {
    return (typeof value === 'string' && !isSealed(value) ? this.seal(value) : value) as T;
  }
}
