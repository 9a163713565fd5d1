import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { tokenWithScopes } from '../../helpers/networking.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, CTRL_S, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, gone, jump, press, select, wait } from './harness.js';
import { CERT, KEY } from './tls-pair.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

const bucketLabels = async () => ((await call(svc, 'GET', '/object-storage/buckets')).body.data as { label: string }[]).map((b) => b.label);

describe('bucket create and delete', () => {
  it('creates a bucket in a cluster picked from the list, checking the name as it is typed', async () => {
    const r = app(svc);
    await jump(r, 'buckets', '4 items');
    await press(r, 'c', 'New bucket');
    await wait(r, /Cluster \*\s+— choose \(Enter\) —/);
    await press(r, ENTER, 'Cluster: choose');
    await press(r, 'G', /› ap-south-1 \(ap-south\)/);
    await press(r, ENTER, /Cluster \*\s+◂ ap-south-1 \(ap-south\)/);
    await press(r, TAB, /› Name \*/);
    await press(r, 'Media', /✗ .*only lowercase letters, digits and dashes/);
    r.stdin.write('\x15');
    await press(r, 'media-eu', /› Name \*\s+media-eu\s*$/m);
    await press(r, CTRL_S, /Created bucket media-eu\.ap-south-1\./);
    await wait(r, '5 items');
    expect(await bucketLabels()).toContain('media-eu');
  });

  it('says so when the bucket already exists and is yours', async () => {
    const r = app(svc);
    await jump(r, 'buckets', /\d items/);
    await press(r, 'c', 'New bucket');
    await wait(r, /Cluster \*\s+— choose \(Enter\) —/);
    await press(r, ENTER, 'Cluster: choose');
    await press(r, 'G', /› ap-south-1/);
    await press(r, ENTER, /◂ ap-south-1/);
    await press(r, TAB, /› Name \*/);
    await press(r, 'logs-2026', /logs-2026/);
    await press(r, CTRL_S, /Bucket logs-2026 already exists in ap-south-1 and is yours; nothing changed/);
  });

  it('deletes an empty bucket after the confirm; Cancel (the default) keeps it', async () => {
    const r = app(svc);
    await jump(r, 'buckets', /\d items/);
    await select(r, 'scratch');
    await press(r, CTRL_D, /Delete the empty bucket scratch \(us-east-1\)\?/);
    r.stdin.write(ENTER);
    await gone(r, 'Delete the empty bucket');
    expect(await bucketLabels()).toContain('scratch');
    await press(r, CTRL_D, /Delete the empty bucket scratch/);
    await press(r, TAB, /Delete/);
    await press(r, ENTER, /Delete scratch: done/);
    expect(await bucketLabels()).not.toContain('scratch');
  });

  it('force-deletes a bucket with objects only after its label is typed', async () => {
    const r = app(svc);
    await jump(r, 'buckets', /\d items/);
    await select(r, 'backups-db');
    // A plain delete explains that the bucket is not empty; the service would refuse it.
    await press(r, CTRL_D, /holds 8 objects \([\d.]+ KB\): the service refuses/);
    r.stdin.write(ESC);
    await gone(r, 'the service refuses');
    await press(r, 'a', 'Actions: backups-db');
    await press(r, 'F', /Delete bucket backups-db and all 8 objects/);
    await wait(r, 'Type backups-db to confirm');
    // Without the label typed the confirm button does nothing.
    await press(r, TAB, /\[ Force delete \(with all objects\) \]/);
    await press(r, ENTER, /Type backups-db first/);
    await press(r, 'backups', /backups/);
    await press(r, ENTER, /Type backups-db exactly to confirm/);
    expect(await bucketLabels()).toContain('backups-db');
    await press(r, '-db', /backups-db/);
    await press(r, ENTER, /Deleted bucket backups-db and its 8 objects/);
    expect(await bucketLabels()).not.toContain('backups-db');
  });
});

describe('bucket access and certificates', () => {
  it('sets the ACL and CORS (PUT) and changes the ACL alone (POST)', async () => {
    const r = app(svc);
    await jump(r, 'buckets', /\d items/);
    await select(r, 'assets-prod');
    await press(r, 'a', 'Actions: assets-prod');
    await press(r, 'x', 'Set bucket access');
    await press(r, ENTER, 'ACL: choose');
    const choices = await wait(r, 'custom');
    expect(choices).toMatch(/public-read-write/);
    await press(r, ENTER, /ACL \*\s+◂ private/);
    await press(r, TAB, /› CORS/);
    await press(r, CTRL_S, /Access of assets-prod set/);
    await press(r, 'a', 'Actions: assets-prod');
    await press(r, 'l', 'Change bucket ACL');
    await press(r, ENTER, 'ACL: choose');
    await press(r, 'j', /› public-read/);
    await press(r, ENTER, /ACL \*\s+◂ public-read/);
    await press(r, CTRL_S, /ACL of assets-prod changed/);
  });

  it('shows, deletes and uploads a TLS certificate (pasted PEM in multi-line fields)', async () => {
    const r = app(svc);
    await jump(r, 'buckets', /\d items/);
    await select(r, 'assets-prod');
    await press(r, 'd', /tls\s+a certificate is uploaded/);
    r.stdin.write(ESC);
    await gone(r, 'a certificate is uploaded');
    await press(r, 'a', 'Actions: assets-prod');
    await press(r, 'D', /Delete the TLS certificate and private key of assets-prod\?/);
    await press(r, TAB, /TLS certificate: delete/);
    await press(r, ENTER, /TLS certificate of assets-prod deleted/);
    expect((await call(svc, 'GET', '/object-storage/buckets/us-east-1/assets-prod/ssl')).body).toEqual({ ssl: false });
    await press(r, 'a', 'Actions: assets-prod');
    await press(r, 't', /assets-prod has no TLS certificate/);

    await press(r, 'a', 'Actions: assets-prod');
    await press(r, 'u', 'Upload TLS certificate');
    await press(r, CERT, /-----END CERTIFICATE-----/);
    await press(r, TAB, /› Private key \*/);
    await press(r, KEY, /•••••/);
    // The key is masked; Ctrl-R shows it.
    expect(r.lastFrame()).not.toContain('BEGIN PRIVATE KEY');
    await press(r, '\x12', /-----BEGIN PRIVATE KEY-----/);
    await press(r, CTRL_S, /TLS certificate uploaded for assets-prod\./);
    expect((await call(svc, 'GET', '/object-storage/buckets/us-east-1/assets-prod/ssl')).body).toEqual({ ssl: true });
  });

  it('shows the service refusing a key that does not match, beside the field', async () => {
    await call(svc, 'DELETE', '/object-storage/buckets/us-east-1/assets-prod/ssl');
    const r = app(svc);
    await jump(r, 'buckets', /\d items/);
    await select(r, 'assets-prod');
    await press(r, 'a', 'Actions: assets-prod');
    await press(r, 'u', 'Upload TLS certificate');
    await press(r, CERT, /-----END CERTIFICATE-----/);
    await press(r, TAB, /› Private key \*/);
    await press(r, KEY.replace('MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQglF0', 'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgmQdL'), /•••/);
    await press(r, CTRL_S, /Private key (must be a PEM private key|does not match the certificate)/);
  });
});

describe('a read-only token', () => {
  it('marks the changes it cannot make, and picking one names the missing scope instead of asking', async () => {
    // account:read_only lets the app read the token's own scopes from the profile.
    const r = app(svc, { token: tokenWithScopes(svc, 'object_storage:read_only account:read_only') });
    await jump(r, 'buckets', /\d items/);
    // The token's scopes arrive from the profile's token list.
    await wait(r, () => r.ctx.session.getState().scopes !== null);
    await select(r, 'logs-2026');
    const menu = await press(r, 'a', 'Actions: logs-2026');
    expect(menu).toMatch(/Set ACL and CORS\s+\(needs object_storage:read_write\)/);
    expect(menu).toMatch(/TLS certificate: check\s*│/);
    const refused = await press(r, 'F', /Force delete .*: needs object_storage:read_write/);
    expect(refused).not.toContain('Type logs-2026 to confirm');
    expect(refused).toContain('Actions: logs-2026');
    expect((await call(svc, 'GET', '/object-storage/buckets/ap-south-1/logs-2026')).status).toBe(200);
  });
});
