import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { CTRL_S, DOWN, ENTER, ESC, sendInputAndWait, waitForContent } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_U, RIGHT, jump, plain, renderOn } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe(':profile', () => {
  it('shows the user’s fields and the security areas with their state; Enter drills in, d shows the detail', async () => {
    const r = renderOn(svc, { cols: 100 });
    const frame = await jump(r, 'me', /Tokens\s+4 tokens/);
    expect(frame).toMatch(/Username\s+demo-owner/);
    expect(frame).toMatch(/Email\s+demo-owner@example\.com/);
    expect(frame).toMatch(/Time zone\s+America\/New_York/);
    expect(frame).toMatch(/Two-factor auth\s+off/);
    expect(frame).toMatch(/Console SSH keys\s+1 key: owner@laptop/);
    expect(frame).toMatch(/SSH keys\s+2 keys/);
    expect(frame).toMatch(/Grants\s+none apply/);
    await waitForContent(r.lastFrame, /Logins\s+15 logins/);

    await sendInputAndWait(r.stdin, 'd', r.lastFrame, 'Referrals');
    expect(r.lastFrame()).toContain('referrals.url');
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, /Tokens\s+4 tokens/);

    r.stdin.write(DOWN);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'profile › tokens');
    await waitForContent(r.lastFrame, '[this] serve --token');
    // Back on the profile, the same area is still selected.
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, /› Tokens\s+4 tokens/);
    r.unmount();
  });

  it('edits the profile: the model checks the email as you type, the service’s error shows beside its field', async () => {
    const r = renderOn(svc, { cols: 100, rows: 30 });
    await jump(r, 'profile', /Tokens\s+4 tokens/);
    await sendInputAndWait(r.stdin, 'e', r.lastFrame, 'Edit profile: demo-owner');
    r.stdin.write(CTRL_U);
    await sendInputAndWait(r.stdin, 'not-an-email', r.lastFrame, /Email .*✗ not-an-email is not an email/);
    expect(r.lastFrame()).toMatch(/^not-an-email is not an email address$/m);
    r.stdin.write(CTRL_U);
    await sendInputAndWait(r.stdin, 'ops@example.org', r.lastFrame, (f) => !f.includes('✗'));

    // The owner may not be restricted: only the service knows who the owner is.
    for (let i = 0; i < 5; i++) r.stdin.write(DOWN);
    await sendInputAndWait(r.stdin, ' ', r.lastFrame, /Restricted\s+\[x\] yes/);
    // Restricting yourself asks first; Cancel (the default) sends nothing.
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, 'Restrict demo-owner?');
    expect(plain(r.lastFrame())).toContain('cannot lift its own restriction');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /Restricted\s+\[x\] yes/);
    expect((await call(svc, 'GET', '/profile')).body.email).toBe('demo-owner@example.com');
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, 'Restrict demo-owner?');
    r.stdin.write(RIGHT);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /Restricted\s+\[x\] yes\s+✗ cannot restrict the account/);
    expect(r.lastFrame()).toMatch(/^cannot restrict the account owner$/m);
    expect((await call(svc, 'GET', '/profile')).body.email).toBe('demo-owner@example.com');

    await sendInputAndWait(r.stdin, ' ', r.lastFrame, /Restricted\s+\[ \] no/);
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, 'Saved profile demo-owner');
    await waitForContent(r.lastFrame, /Email\s+ops@example\.org\s+Email notifications/);
    expect((await call(svc, 'GET', '/profile')).body).toMatchObject({ email: 'ops@example.org', restricted: false });
    r.unmount();
  });
});
