import { SSH_KEY_LABEL_MAX, SSHKey } from '../../model/profile.js';
import { present } from '../../model/schema.js';
import { bodyFor, listPage, type Ctx, type Router } from '../route.js';
import type { Row } from '../store.js';
import { isoSeconds } from '../../model/time.js';
import { ownParent, ownRow, profileEvent } from './profile-common.js';

interface KeyRecord extends Row {
  id: number;
  label: string;
  ssh_key: string;
  created: string;
}

const keyEntity = (k: KeyRecord) => ({ id: k.id, label: k.label, type: 'user_ssh_key', url: `/v4/profile/sshkeys/${k.id}` });

/** Without a label, a key is named by its comment (user@host), else by its type. */
function defaultKeyLabel(sshKey: string): string {
  const [type, , ...comment] = sshKey.split(/\s+/);
  return [...(comment.join(' ') || type!)].slice(0, SSH_KEY_LABEL_MAX).join('');
}

/** Profile SSH keys: root keys for instances deployed with authorized_users. */
export function keyRoutes(r: Router): void {
  r.get('/profile/sshkeys', 'account:read_only', (ctx) => listPage(ctx, 'sshkey', { parent: ownParent(ctx), present: (row) => present(SSHKey, row) }));

  r.post('/profile/sshkeys', 'account:read_write', (ctx) => {
    const body = bodyFor(ctx, SSHKey, 'create');
    const sshKey = String(body.ssh_key).trim();
    const id = ctx.store.nextId('sshkey');
    const key: KeyRecord = { id, label: (body.label as string | undefined) ?? defaultKeyLabel(sshKey), ssh_key: sshKey, created: isoSeconds(ctx.store.clock.now()) };
    ctx.store.insert('sshkey', id, key, { parent: ownParent(ctx) });
    profileEvent(ctx, 'user_ssh_key_add', keyEntity(key));
    return present(SSHKey, key);
  });

  const ownKey = (ctx: Ctx) => ownRow<KeyRecord>(ctx, 'sshkey', ctx.params.sshKeyId!, 'SSH key not found');

  r.get('/profile/sshkeys/{sshKeyId}', 'account:read_only', (ctx) => present(SSHKey, ownKey(ctx)));

  r.put('/profile/sshkeys/{sshKeyId}', 'account:read_write', (ctx) => {
    const key = ownKey(ctx);
    const updated = { ...key, ...bodyFor(ctx, SSHKey, 'update', key) };
    ctx.store.put('sshkey', key.id, updated);
    profileEvent(ctx, 'user_ssh_key_update', keyEntity(updated));
    return present(SSHKey, updated);
  });

  // Keys already deployed to instances or disks stay there: only the profile forgets this one.
  r.delete('/profile/sshkeys/{sshKeyId}', 'account:read_write', (ctx) => {
    const key = ownKey(ctx);
    ctx.store.delete('sshkey', key.id);
    profileEvent(ctx, 'user_ssh_key_delete', keyEntity(key));
  });

}
