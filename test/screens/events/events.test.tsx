import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { startLivePoller, type LivePoller } from '../../../src/store/live.js';
import { ENTER, ESC, sendInputAndWait, waitForContent } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { WITH_INSTANCES, control, crumbs, openArea, unmountAll, warmUp } from '../managed/harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  await warmUp(svc);
});
afterAll(() => svc.close());
let poller: LivePoller | undefined;
afterEach(() => {
  poller?.stop();
  unmountAll();
});

/** The list's rows (not its header). */
const rowsOf = (frame: string) => frame.split('\n').filter((l) => /^[ ›] (just now|\d+[smhd] ago) /.test(l));

const emit = async (body: Record<string, unknown>) => {
  const r = await control(svc, '/events', body);
  expect(r.status).toBe(200);
  return r.body as { id: number };
};

describe(':events', () => {
  it('lists events newest first with entity, colored status and who did it', async () => {
    await emit({ action: 'vm_reboot', status: 'started', entity: { id: 41002, label: 'web-2', type: 'vm' } });
    const last = await emit({ action: 'firewall_update', status: 'failed', entity: { id: 1, label: 'edge', type: 'firewall' }, message: 'rule 3 rejected' });
    const r = await openArea(svc, 'events', /items/);
    const frame = await waitForContent(r.lastFrame, 'firewall_update');
    const rows = rowsOf(frame);
    expect(rows[0]).toMatch(/^› just now +firewall_update +firewall:edge +✗ failed +system +rule 3 reject/);
    expect(rows[1]).toMatch(/^ {2}just now +vm_reboot +vm:web-2 +▶ 0% +system/);
    // The API's order (newest first) is the list's, down the whole page.
    const ids = (await call(svc, 'GET', '/account/events?page_size=25')).body.data.map((e: { id: number }) => e.id) as number[];
    expect(ids[0]).toBe(last.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    expect(frame).toMatch(/When +Action +Entity +Status +By +Message/);
  });

  it('filters by action or entity type, and shows an event in detail', async () => {
    await emit({ action: 'nodebalancer_update', status: 'notification', entity: { id: 7, label: 'lb-eu', type: 'nodebalancer' } });
    const r = await openArea(svc, 'events', /items/);
    r.stdin.write('/');
    await waitForContent(r.lastFrame, /^\//m);
    let frame = await sendInputAndWait(r.stdin, 'nodebalancer:', r.lastFrame, /\d+ of \d+/);
    expect(rowsOf(frame).length).toBeGreaterThan(0);
    expect(rowsOf(frame).every((l) => l.includes('nodebalancer:'))).toBe(true);
    r.stdin.write(ENTER);
    await waitForContent(r.lastFrame, /^\/nodebalancer:/m);
    frame = await sendInputAndWait(r.stdin, 'd', r.lastFrame, 'entity.url');
    expect(frame).toMatch(/action +nodebalancer_update/);
    expect(frame).toMatch(/when +\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(just now\)/);
    expect(frame).toMatch(/entity\.url +\/v4\/nodebalancers\/7/);
  });

  it('Enter jumps to the entity: an instance, a managed issue by its ticket; Esc comes back', async () => {
    const r = await openArea(svc, 'events', /items/, { screens: WITH_INSTANCES });
    r.stdin.write('/');
    await waitForContent(r.lastFrame, /^\//m);
    await sendInputAndWait(r.stdin, 'vm:build-box', r.lastFrame, /^› .*vm_boot +vm:build-box/m);
    r.stdin.write(ENTER);
    await waitForContent(r.lastFrame, /^\/vm:build-box/m);
    let frame = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => /› overview$/.test(crumbs(f)) && f.includes('build-box ·'));
    expect(crumbs(frame)).toMatch(/^home › events › vm_boot #\d+ › overview$/);
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, (f) => crumbs(f) === 'home › events');

    // The ticket of a monitoring issue opens the issue.
    r.stdin.write('/');
    await waitForContent(r.lastFrame, /^\/vm:build-box/m);
    for (let i = 0; i < 'vm:build-box'.length; i++) r.stdin.write('\x7f');
    await sendInputAndWait(r.stdin, 'ticket:postgres', r.lastFrame, /^› .*ticket_create +ticket:postgres-primary/m);
    r.stdin.write(ENTER);
    await waitForContent(r.lastFrame, /^\/ticket:postgres/m);
    frame = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Instance access');
    expect(crumbs(frame)).toMatch(/^home › events › ticket_create #\d+ › issue$/);
    expect(frame).toContain('#1 postgres-primary: connection refused on port 5432');
  });

  it('marks an event read, and every event up to one seen', async () => {
    const e = await emit({ action: 'vm_resize', status: 'finished', entity: { id: 41003, label: 'web-3', type: 'vm' } });
    const r = await openArea(svc, 'events', /^› .*vm_resize/m);
    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'r Mark read');
    await sendInputAndWait(r.stdin, 'r', r.lastFrame, `Event #${e.id} marked read`);
    expect((await call(svc, 'GET', `/account/events/${e.id}`)).body.read).toBe(true);
    const menu = await sendInputAndWait(r.stdin, 'a', r.lastFrame, 's Mark this and every earlier event seen');
    expect(menu).not.toContain('Mark read');
    await sendInputAndWait(r.stdin, 's', r.lastFrame, `Events up to #${e.id} marked seen`);
    const events = (await call(svc, 'GET', '/account/events?page_size=100')).body.data as { seen: boolean }[];
    expect(events.every((x) => x.seen)).toBe(true);
  });

  it('says so when no view shows an entity, and stays', async () => {
    await emit({ action: 'volume_create', status: 'notification', entity: { id: 3, label: 'data-vol', type: 'volume' } });
    const r = await openArea(svc, 'events', /^› .*volume_create/m);
    const frame = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'No view shows volume entities');
    await waitForContent(r.lastFrame, (f) => crumbs(f) === 'home › events');
    expect(frame).toContain('✗');
  });

  it('shows new events live: in the message line and at the top of the list, without a key press', async () => {
    const r = await openArea(svc, 'events', /items/);
    poller = startLivePoller({ client: r.ctx.client, data: r.ctx.data, session: r.ctx.session, fastMs: 100, idleMs: 200 });
    await poller.poke();
    await emit({ action: 'vm_shutdown', status: 'finished', entity: { id: 41005, label: 'api-2', type: 'vm' } });
    const frame = await waitForContent(r.lastFrame, (f) => f.includes('vm_shutdown finished: api-2') && /^› just now +vm_shutdown +vm:api-2/m.test(f));
    expect(frame.split('\n').at(-1)).toBe('vm_shutdown finished: api-2');
  });
});
