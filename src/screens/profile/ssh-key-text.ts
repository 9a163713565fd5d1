import { createHash } from 'node:crypto';

/** How an SSH public key is shown: its type, the tail of its body, and the SHA256 fingerprint ssh-keygen -l prints. */

export interface KeyParts {
  type: string;
  body: string;
  comment: string;
}

export function keyParts(key: string): KeyParts {
  const [type = '', body = '', ...comment] = key.trim().split(/\s+/);
  return { type, body, comment: comment.join(' ') };
}

/** "ssh-ed25519 …JdCmTn18": enough of the key to tell it apart at a glance. */
export function keyShort(key: string): string {
  const { type, body } = keyParts(key);
  return body.length > 12 ? `${type} …${body.slice(-10)}` : `${type} ${body}`;
}

const fingerprints = new Map<string, string>();

/** SHA256:<base64 of the key body's hash, unpadded>, as ssh-keygen writes it; memoized because table cells ask on every render. */
export function fingerprint(key: string): string {
  const { body } = keyParts(key);
  let fp = fingerprints.get(body);
  if (fp === undefined) {
    fp = `SHA256:${createHash('sha256').update(Buffer.from(body, 'base64')).digest('base64').replace(/=+$/, '')}`;
    fingerprints.set(body, fp);
  }
  return fp;
}

/** "owner@laptop (ssh-ed25519 …JdCmTn18)" for the console keys on the profile. */
export const keySummary = (key: string) => {
  const { comment } = keyParts(key);
  return comment ? `${comment} (${keyShort(key)})` : keyShort(key);
};
