import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, gone, jump, press, select, wait } from './harness.js';

vi.stubEnv('TMUX', '');

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

const keyList = async () => (await call(svc, 'GET', '/object-storage/keys')).body.data as { id: number; label: string; bucket_access: unknown }[];

describe('access keys', () => {
  it('lists keys with what each may reach', async () => {
    const r = app(svc);
    const frame = await jump(r, 'keys', '2 items');
    expect(frame).toMatch(/ID\s+Label\s+Access key\s+Limited\s+Bucket access/);
    expect(frame).toMatch(/deploy-ci\s+[A-Z0-9]{20}\s+no\s+all buckets/);
    expect(frame).toMatch(/backup-agent\s+[A-Z0-9]{20}\s+yes\s+backups-db rw, logs-2026 ro/);
  });

  it('creates a key limited to picked buckets and shows its secret once', async () => {
    const r = app(svc);
    await jump(r, 'keys', '2 items');
    await press(r, 'c', 'New access key');
    await press(r, 'site-reader', /› Label\s+site-reader/);
    await press(r, TAB, /› Bucket access \*\s+◂ all/);
    await press(r, ' ', /◂ none/);
    await press(r, ' ', /◂ listed/);
    // The model's rule, as soon as "listed" is chosen.
    await wait(r, /Buckets\s+— none \(Enter chooses\) —\s+✗ Pick at least one bucket \(or choose none\)/);
    await press(r, TAB, /› Buckets/);
    await press(r, ENTER, 'Buckets: Enter toggles, Esc done');
    await press(r, DOWN, /› \[ \] assets-prod \(us-east-1\) read-only/);
    await press(r, ENTER, /\[x\] assets-prod \(us-east-1\) read-only/);
    await press(r, ESC, /› Buckets\s+us-east-1\/assets-prod:read_only/);
    const secret = await press(r, CTRL_S, 'Secret key of site-reader');
    expect(secret).toContain('shown only once');
    // The secret alone on its line: no border, no indent for a mouse selection to pick up.
    const value = /^([A-Za-z0-9]{40})$/m.exec(secret)?.[1];
    expect(value).toBeDefined();
    await press(r, 'Y', 'Copied "Secret key of site-reader" (OSC 52)');
    expect(r.frames.join('')).toContain(`\x1b]52;c;${Buffer.from(value!).toString('base64')}\x07`);
    expect(secret).toMatch(/Access key: [A-Z0-9]{20}/);
    await press(r, ENTER, /3 items/);
    expect(r.lastFrame()).not.toContain(value!);
    await wait(r, /site-reader\s+[A-Z0-9]{20}\s+yes\s+assets-prod ro/);
    const made = (await keyList()).find((k) => k.label === 'site-reader')!;
    expect(made.bucket_access).toEqual([{ cluster: 'us-east-1', bucket_name: 'assets-prod', permissions: 'read_only' }]);
  });

  it('renames a key, then revokes it after the confirm', async () => {
    const r = app(svc);
    await jump(r, 'keys', /\d items/);
    await select(r, 'deploy-ci');
    await press(r, 'e', 'Edit deploy-ci');
    r.stdin.write('\x15');
    await press(r, 'deploy-ci-old', /deploy-ci-old/);
    await press(r, CTRL_S, /Saved deploy-ci/);
    await press(r, ESC, /deploy-ci-old/);
    await select(r, 'deploy-ci-old');
    await press(r, CTRL_D, /Revoke access key deploy-ci-old \([A-Z0-9]{20}\)\? Every client/);
    r.stdin.write(ENTER);
    await gone(r, 'Revoke access key');
    expect((await keyList()).map((k) => k.label)).toContain('deploy-ci-old');
    await press(r, CTRL_D, /Revoke access key deploy-ci-old/);
    await press(r, TAB, /\[ Revoke \]/);
    await press(r, ENTER, /Revoke deploy-ci-old: done/);
    expect((await keyList()).map((k) => k.label)).not.toContain('deploy-ci-old');
  });
});
