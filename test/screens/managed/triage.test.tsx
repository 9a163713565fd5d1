import { describe, expect, it } from 'vitest';
import { BACKSPACE, ENTER, ESC, readsDone, sendInputAndWait, waitForContent } from '../../helpers/ink.js';
import { startTestService } from '../../helpers/service.js';
import { control, crumbs, openArea, demoAccount, warmUp } from './harness.js';

const svc = await demoAccount();

describe('the triage view', () => {
  it('opens filtered from the command line: :issues postgres', async () => {
    const r = await openArea(svc, 'issues postgres', (f) => /^\/postgres/m.test(f) && f.includes('#1'));
    expect(r.lastFrame()).not.toContain('#2');
  });

  it('lists open issues newest first: age, ticket, and each affected service with status, type and address', async () => {
    const r = await openArea(svc, 'issues', '2 open issues');
    const frame = await waitForContent(r.lastFrame, '2 problem services');
    const lines = frame.split('\n');
    const first = lines.findIndex((l) => l.includes('#2'));
    const second = lines.findIndex((l) => l.includes('#1'));
    expect(first).toBeGreaterThan(0);
    expect(second).toBeGreaterThan(first);
    expect(lines[first]).toMatch(/^› 4m ago +#2 +api-gateway: HTTP 502 from https:\/\/api\.example\.com\/v1\/status/);
    expect(lines[first + 1]).toMatch(/✗ PROBLEM +api-gateway +url +https:\/\/api\.example\.com\/v1\/status +· on-call/);
    expect(lines[second]).toMatch(/^ {2}17m ago +#1 +postgres-primary: connection refused on port 5432/);
    expect(lines[second + 1]).toMatch(/✗ PROBLEM +postgres-primary +tcp +45\.79\.0\.7:5432 +· engineering/);
    expect(crumbs(frame)).toBe('home › triage');
  });

  it('filters by service, contact group or age, and documents how', async () => {
    const r = await openArea(svc, 'triage', '2 open issues');
    r.stdin.write('/');
    const typing = await waitForContent(r.lastFrame, /^\/ /m);
    expect(typing).toContain('2 of 2 · words match service, group, status, ticket · <1h, >30m: age');
    let frame = await sendInputAndWait(r.stdin, 'engineering', r.lastFrame, '1 of 2 · words');
    expect(frame).toContain('#1');
    expect(frame).not.toContain('#2');
    for (let i = 0; i < 'engineering'.length; i++) r.stdin.write(BACKSPACE);
    await waitForContent(r.lastFrame, (f) => f.includes('#2') && f.includes('#1'));
    frame = await sendInputAndWait(r.stdin, '<10m', r.lastFrame, '1 of 2 · words');
    expect(frame).toContain('#2');
    expect(frame).not.toContain('#1');
    r.stdin.write(ENTER);
    await waitForContent(r.lastFrame, /^\/<10m +2 open issues · 1 shown/m);
    frame = await sendInputAndWait(r.stdin, ESC, r.lastFrame, (f) => f.includes('#1') && !f.includes('/<10m'));
    expect(frame).toContain('#2');
  });

  it('shows a new issue within a refresh, and says so when none is open', async () => {
    const fresh = await startTestService({ seed: 'demo' });
    try {
      await warmUp(fresh);
      for (const id of [1, 2]) expect((await control(fresh, `/managed/issues/${id}/resolve`)).status).toBe(200);
      const r = await openArea(fresh, 'issues', '✓ No open managed issues.');
      await control(fresh, '/managed/issues', { services: [3], label: 'checkout-api: 503 on /healthz' });
      r.stdin.write('r');
      const frame = await waitForContent(r.lastFrame, (f) => f.includes('checkout-api: 503 on /healthz') && f.includes('PROBLEM'));
      expect(frame).toMatch(/› just now +#3/);
      expect(frame).toMatch(/✗ PROBLEM +checkout-api +url +http:\/\/45\.79\.0\.5\/healthz/);
    } finally {
      await fresh.close();
    }
  });
});

describe('the issue screen', () => {
  it('shows on one screen the services, contacts, credentials, instance SSH access and the ticket', async () => {
    const r = await openArea(svc, 'issues', '2 open issues');
    r.stdin.write('j');
    await waitForContent(r.lastFrame, /^› 17m ago/m);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Instance access');
    // The lines are drawn as their lists come in (the issues and services are cached by the home view's counts): the instances may follow.
    await readsDone(r);
    const frame = r.lastFrame();
    expect(crumbs(frame)).toBe('home › triage › #1 › issue');
    const body = frame.split('\n').slice(2, -2).join('\n');
    expect(body).toMatch(/#1 postgres-primary: connection refused on port 5432/);
    expect(body).toMatch(/detected 17m ago · \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC · ticket \/support\/tickets\/21400/);
    expect(body).toMatch(/› ✗ PROBLEM +postgres-primary +tcp +45\.79\.0\.7:5432/);
    expect(body).toMatch(/timeout 5s · any response counts/);
    expect(body).toMatch(/notes: Failover runbook: wiki\/db-failover/);
    expect(body).toMatch(/Contacts · engineering\n.*Priya Raman +priya\.raman@example\.com +\+44 20 7946 0321 · \+44 7700 900123\n.*Tomasz Nowak +tomasz\.nowak@example\.com +\+48 22 555 01 87/);
    expect(body).toMatch(/Credentials \(labels; the secrets are write-only\)\n.*prod-db root +last decrypted 12d ago/);
    expect(body).toMatch(/Instance access · 45\.79\.0\.7\n.*db-primary +running +ssh deploy@45\.79\.0\.7 -p 2222/);
  });

  it('says when a service is reached by name, so no instance matches', async () => {
    const r = await openArea(svc, 'issues', '2 open issues');
    const frame = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Instance access');
    expect(frame).toContain('timeout 10s · body must contain: "status":"up"');
    expect(frame).toContain('notes: Behind the eu balancer; restart with systemctl restart gateway');
    expect(frame).toMatch(/Maria Alvarez +maria\.alvarez@example\.com/);
    expect(frame).toMatch(/web\.deploy +never decrypted/);
    expect(frame).toContain('api.example.com is a name, not an address: no instance matched');
  });
});
