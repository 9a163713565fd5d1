import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, gone, jump, press, select, wait } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe('provisioning scripts', () => {
  it('shows a script with its text and the fields it asks for', async () => {
    const r = app(svc);
    const list = await jump(r, 'scripts', '4 items');
    expect(list).toMatch(/ID\s+Label\s+Author\s+Public\s+Images\s+Deploys\s+Updated/);
    expect(list).toMatch(/10001\s+nginx-web-server\s+vm\s+yes\s+vm\/debian12, vm\/ubuntu24\.04/);
    await select(r, 'team-bootstrap');
    const detail = await press(r, 'd', 'User-defined fields');
    expect(detail).toMatch(/environment: Environment \(one of production,staging,dev, default staging\)/);
    expect(detail).toMatch(/hostname: Hostname \(e\.g\. web-3, required\)/);
    expect(detail).toMatch(/^script\s+#!\/bin\/bash$/m);
  });

  it('creates a script: images picked from the list, a multi-line script checked as it is typed', async () => {
    const r = app(svc);
    await jump(r, 'scripts', /\d+ items/);
    await press(r, 'c', 'New script');
    await press(r, 'deploy-app', /› Label \*\s+deploy-app/);
    await wait(r, /Images \*\s+— none \(Enter chooses\) —/);
    await press(r, TAB, /› Images \*/);
    await press(r, ENTER, 'Images: Enter toggles, Esc done');
    // Private images are listed first.
    await press(r, ENTER, /\[x\] private\/1/);
    await press(r, DOWN, /› \[ \] private\/2/);
    for (let i = 0; i < 4; i++) r.stdin.write(DOWN);
    await wait(r, /› \[ \] vm\/debian12/);
    await press(r, ENTER, /\[x\] vm\/debian12/);
    await press(r, ESC, /Images \*\s+private\/1, vm\/debian12/);
    for (let i = 0; i < 4; i++) r.stdin.write(TAB);
    await wait(r, /› Script \*/);
    // Beside the field in short, in full on the line under the form.
    await press(r, 'echo hi', /✗ must start/);
    await wait(r, /^Script must start with an interpreter line such as #!\/bin\/bash$/m);
    r.stdin.write('\x15');
    await press(r, '#!/bin/sh', /#!\/bin\/sh/);
    await press(r, ENTER, /Enter adds a line/);
    await press(r, '# <UDF name="target" label="Deploy target" oneOf="blue,green" />', /UDF name="target"/);
    r.stdin.write(ENTER);
    await press(r, 'echo "$TARGET"', (f) => /#!\/bin\/sh\n.*<UDF name="target".*\n.*echo "\$TARGET"/.test(f));
    await press(r, CTRL_S, /Created script deploy-app \(\d+\)/);
    await wait(r, /deploy-app\s+demo-owner\s+no\s+private\/1, vm\/debian12/);
    const scripts = (await call(svc, 'GET', '/vm/stackscripts')).body.data as { label: string; script: string; user_defined_fields: { name: string }[] }[];
    const made = scripts.find((s) => s.label === 'deploy-app')!;
    expect(made.script).toBe('#!/bin/sh\n# <UDF name="target" label="Deploy target" oneOf="blue,green" />\necho "$TARGET"');
    expect(made.user_defined_fields.map((f) => f.name)).toEqual(['target']);
  });

  it('asks before making a script public, and refuses to delete a public one', async () => {
    const r = app(svc);
    await jump(r, 'scripts', /\d+ items/);
    await select(r, 'team-bootstrap');
    await press(r, 'e', 'Edit team-bootstrap');
    for (let i = 0; i < 3; i++) r.stdin.write(TAB);
    await wait(r, /› Public/);
    await press(r, ' ', /› Public\s+\[x\] yes/);
    await press(r, CTRL_S, /can never be made private again/);
    // Cancel is the default: nothing is sent.
    await press(r, ENTER, /› Public\s+\[x\] yes/);
    expect((await call(svc, 'GET', '/vm/stackscripts/10004')).body.is_public).toBe(false);
    await press(r, CTRL_S, /can never be made private again/);
    await press(r, TAB, /Proceed/);
    await press(r, ENTER, /Saved team-bootstrap/);
    expect((await call(svc, 'GET', '/vm/stackscripts/10004')).body.is_public).toBe(true);
    await press(r, CTRL_D, /team-bootstrap is public: public scripts cannot be deleted/);
  });

  it('deletes a private script after the confirm (Cancel first keeps it)', async () => {
    const made = await call(svc, 'POST', '/vm/stackscripts', { body: { label: 'to-remove', images: ['vm/debian12'], script: '#!/bin/bash\ntrue\n' } });
    const r = app(svc);
    await jump(r, 'scripts', /\d+ items/);
    await select(r, 'to-remove');
    await press(r, CTRL_D, /Delete the script to-remove/);
    r.stdin.write(ENTER);
    await gone(r, 'Delete the script to-remove');
    await press(r, CTRL_D, /Delete the script to-remove/);
    await press(r, TAB, /Delete/);
    await press(r, ENTER, /Delete to-remove: done/);
    expect((await call(svc, 'GET', `/vm/stackscripts/${made.body.id}`)).status).toBe(404);
  });
});
