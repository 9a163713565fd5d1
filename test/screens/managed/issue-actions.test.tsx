import { describe, expect, it } from 'vitest';
import { BACKSPACE, CTRL_S, ENTER, ESC, TAB, readsDone, sendInputAndWait, waitForContent } from '../../helpers/ink.js';
import { call } from '../../helpers/service.js';
import type { ScreenDef } from '../../../src/app/screen.js';
import { WITH_INSTANCES, crumbs, openArea, demoAccount } from './harness.js';

const svc = await demoAccount();

/** The postgres-primary issue (#1), opened from triage. */
async function openPostgresIssue(screens?: ScreenDef[], token?: string) {
  const r = await openArea(svc, 'issues', '2 open issues', { screens, token });
  r.stdin.write('j');
  await waitForContent(r.lastFrame, /^› 17m ago/m);
  await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Instance access');
  // The lines are drawn as their lists come in (the issues and services are cached by the home view's counts): until the instances are in too, G would stop short of the instance's line.
  await readsDone(r);
  return r;
}

const serviceStatus = async (id: number) => (await call(svc, 'GET', `/managed/services/${id}`)).body.status as string;

describe('acting on an issue', () => {
  it('disables and enables monitoring of a service, each after a confirm that defaults to Cancel', async () => {
    const r = await openPostgresIssue();
    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'Actions: postgres-primary');
    expect(r.lastFrame()).toMatch(/› m Disable monitoring.*\n.*e Edit service.*\n.*g Show in the services list/);
    let frame = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, '[ Disable monitoring ]');
    expect(frame).toContain('Stop monitoring "postgres-primary"? No issue is raised');
    // Enter alone presses Cancel.
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /› ✗ PROBLEM +postgres-primary/);
    expect(await serviceStatus(4)).toBe('problem');

    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'Actions: postgres-primary');
    await sendInputAndWait(r.stdin, 'm', r.lastFrame, '[ Disable monitoring ]');
    r.stdin.write(TAB);
    await waitForContent(r.lastFrame, 'Disable monitoring ]');
    frame = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /› ○ disabled +postgres-primary/);
    expect(frame).toContain('Monitoring of postgres-primary disabled');
    expect(await serviceStatus(4)).toBe('disabled');

    await sendInputAndWait(r.stdin, 'a', r.lastFrame, /m Enable monitoring/);
    await sendInputAndWait(r.stdin, 'm', r.lastFrame, 'Start monitoring "postgres-primary" again? It is pending');
    r.stdin.write(TAB);
    await waitForContent(r.lastFrame, 'Enable monitoring ]');
    r.stdin.write(ENTER);
    await waitForContent(r.lastFrame, 'Monitoring of postgres-primary enabled');
    // The issue is still open: its first check finds it in problem again.
    await waitForContent(r.lastFrame, /› ✗ PROBLEM +postgres-primary/);
    expect(await serviceStatus(4)).toBe('problem');
  });

  it('a token that may only read managed services: e says what is missing and opens no form', async () => {
    const token = (await call(svc, 'POST', '/profile/tokens', { body: { label: 'watch', scopes: 'account:read_only' } })).body.token as string;
    const r = await openPostgresIssue(undefined, token);
    await waitForContent(r.lastFrame, () => r.ctx.session.getState().scopes !== null);
    const refused = await sendInputAndWait(r.stdin, 'e', r.lastFrame, /Cannot edit postgres-primary: needs account:read_write/);
    expect(refused).not.toContain('Edit postgres-primary');
  });

  it('edits the service with its model rules checked as you type', async () => {
    const r = await openPostgresIssue();
    await sendInputAndWait(r.stdin, 'e', r.lastFrame, 'Edit postgres-primary');
    for (let i = 0; i < 3; i++) r.stdin.write(TAB);
    await waitForContent(r.lastFrame, /› Timeout \(s\) \*? +5/);
    r.stdin.write(BACKSPACE);
    await sendInputAndWait(r.stdin, '300', r.lastFrame, /must be between 1 and 255|at most 255/);
    for (let i = 0; i < 3; i++) r.stdin.write(BACKSPACE);
    await sendInputAndWait(r.stdin, '8', r.lastFrame, (f) => !/✗/.test(f.split('\n').find((l) => l.includes('Timeout')) ?? ''));
    const frame = await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /^ +timeout 8s/m);
    expect(crumbs(frame)).toBe('home › triage › #1 › issue');
    expect((await call(svc, 'GET', '/managed/services/4')).body.timeout).toBe(8);
  });

  it("edits an instance's SSH access, with the port checked as you type", async () => {
    const r = await openPostgresIssue();
    r.stdin.write('G');
    await waitForContent(r.lastFrame, /› +db-primary/);
    await sendInputAndWait(r.stdin, 'e', r.lastFrame, 'Edit db-primary');
    for (let i = 0; i < 3; i++) r.stdin.write(TAB);
    await waitForContent(r.lastFrame, /› SSH port +2222/);
    await sendInputAndWait(r.stdin, '99', r.lastFrame, /222299 +✗ must be between 1 and 65535/);
    for (let i = 0; i < 6; i++) r.stdin.write(BACKSPACE);
    await sendInputAndWait(r.stdin, '2200', r.lastFrame, /› SSH port +2200 *\n/);
    const frame = await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /› +db-primary +running +ssh deploy@45\.79\.0\.7 -p 2200/);
    expect(frame).toContain('SSH access of db-primary: ssh deploy@45.79.0.7 -p 2200');
    expect((await call(svc, 'GET', '/managed/vm-settings/41007')).body.ssh.port).toBe(2200);
  });

  it('jumps to a contact in the contacts list, and back', async () => {
    const r = await openPostgresIssue();
    r.stdin.write('j');
    await waitForContent(r.lastFrame, /› +Priya Raman/);
    const frame = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, '1 of 5');
    expect(frame).toMatch(/^\/Priya Raman/m);
    expect(frame).toMatch(/› Priya Raman +priya\.raman@example\.com +\+44 20 7946 0321 · \+44 7700 900123 +engineering/);
    expect(crumbs(frame)).toBe('home › triage › #1 › issue › contacts');
    r.stdin.write(ESC);
    await waitForContent(r.lastFrame, /^\/Priya Raman/m);
  });

  it('jumps to the instance it watches', async () => {
    const r = await openPostgresIssue(WITH_INSTANCES);
    r.stdin.write('G');
    await waitForContent(r.lastFrame, /› +db-primary/);
    const frame = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => crumbs(f).includes('db-primary ›'));
    expect(crumbs(frame)).toMatch(/^home › triage › #1 › issue › db-primary › /);
    expect(frame).toContain('db-primary');
  });
});
