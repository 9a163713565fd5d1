import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { createDataStore } from '../../src/store/data.js';
import { FAST_MS, IDLE_MS, changesOneRow, nextDelay, pathsTouchedBy, startLivePoller, type LivePoller, type Timers } from '../../src/store/live.js';
import { createSessionStore } from '../../src/store/session.js';
import type { RunningService } from '../../src/server/service.js';
import { OWNER_TOKEN, call, startTestService } from '../helpers/service.js';

describe('the polling pace', () => {
  it('stays fast while busy and backs off by doubling to the idle pace', () => {
    const seen: number[] = [];
    let pace = FAST_MS;
    for (const busy of [true, false, false, false, false, false, true, false]) {
      pace = nextDelay(pace, busy);
      seen.push(pace);
    }
    expect(seen).toEqual([2000, 4000, 8000, 15000, 15000, 15000, 2000, 4000]);
    expect(nextDelay(IDLE_MS, false)).toBe(IDLE_MS);
  });

  it('refetches what an event is about, and always the events', () => {
    const paths = pathsTouchedBy([
      { entity: { type: 'vm' } },
      { entity: { type: 'ticket' } },
      { entity: null },
    ] as never);
    expect(paths).toEqual(['/account/events', '/vm/instances', '/managed/vm-settings', '/managed/services', '/managed/issues']);
  });

  it('takes an instance event row by row when asked, but never one that adds or removes an instance', () => {
    const boot = { action: 'vm_boot', entity: { id: 7, type: 'vm' } } as never;
    const create = { action: 'vm_create', entity: { id: 8, type: 'vm' } } as never;
    expect(changesOneRow(boot)).toBe(true);
    expect(changesOneRow(create)).toBe(false);
    expect(pathsTouchedBy([boot, create], new Set([boot]))).toEqual(['/account/events', '/vm/instances/7', '/managed/vm-settings', '/vm/instances']);
  });
});

/** Timers the test fires by hand: it sees each wait the poller asks for, and runs the last one. */
function manualTimers() {
  const waits: number[] = [];
  let due: (() => void) | undefined;
  const timers: Timers = {
    set: (run, ms) => {
      waits.push(ms);
      due = run;
      return waits.length;
    },
    clear: () => {},
    now: () => Date.now(),
  };
  /** The scheduled poll, as the timer would run it; resolves once it has scheduled the next. */
  const fire = async () => {
    const n = waits.length;
    due!();
    await expect.poll(() => waits.length, { timeout: 4000, interval: 5 }).toBeGreaterThan(n);
  };
  return { timers, waits, fire };
}

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

let poller: LivePoller | undefined;
afterEach(() => poller?.stop());

function setup() {
  const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN, retryDelaysMs: [] });
  const session = createSessionStore({ endpoint: svc.baseUrl, embedded: false, readOnly: false, refreshSeconds: 60 });
  const data = createDataStore({ client });
  const { timers, waits, fire } = manualTimers();
  poller = startLivePoller({ client, data, session, timers });
  return { client, session, data, waits, fire, poller };
}

const control = (path: string, body: unknown) => call(svc, 'POST', `/__control${path}`, { body });

describe('the live poller on a real service', () => {
  it('counts the problem services, then says what happened and refetches what it touched', async () => {
    const { session, data, poller: p, waits } = setup();
    await p.poke();
    // The demo account opens with two services in problem; the first look says nothing.
    expect(session.getState().problemCount).toBe(2);
    expect(session.getState().message).toBeUndefined();

    // An instance list on screen, stale: a vm event must refetch it.
    const instances = { path: '/vm/instances' };
    const unwatch = data.getState().watch(instances);
    data.getState().put(instances, [{ id: 1, label: 'stale', status: 'running' }]);
    const emitted = await control('/events', { action: 'vm_boot', status: 'finished', entity: { id: 41001, label: 'web-1', type: 'vm' } });
    expect(emitted.status).toBe(200);
    await p.poke();
    expect(session.getState().message?.text).toBe('vm_boot finished: web-1');
    expect(session.getState().message?.kind).toBe('success');
    await expect.poll(() => (data.getState().lists['base /vm/instances']?.rows ?? []).length).toBe(21);
    unwatch();
    expect(waits.at(-1)).toBe(FAST_MS);
  });

  it('reports a service turning problem, and its recovery, with the header count', async () => {
    const { session, poller: p } = setup();
    await p.poke();
    const before = session.getState().problemCount!;
    const opened = await control('/managed/issues', { services: [1], label: 'shop frontend: TLS handshake timeout' });
    await p.poke();
    expect(session.getState().problemCount).toBe(before + 1);
    expect(session.getState().message).toMatchObject({ text: 'shop frontend is in problem (! opens triage)', kind: 'error' });

    await control(`/managed/issues/${opened.body.id}/resolve`, {});
    // Good news does not replace a fresh error on the message line: clear it first.
    session.setState({ message: undefined });
    await p.poke();
    expect(session.getState().problemCount).toBe(before);
    expect(session.getState().message?.text).toBe('shop frontend is no longer in problem');
  });

  it('polls fast and refetches the instance list while an instance on it is in a transition', async () => {
    const { data, poller: p, waits, fire } = setup();
    await p.poke();
    const instances = { path: '/vm/instances' };
    const unwatch = data.getState().watch(instances);
    // Booting as last seen; the service has it running by now.
    data.getState().put(instances, [{ id: 41001, label: 'web-1', status: 'booting' }]);
    await fire();
    expect(waits.at(-1)).toBe(FAST_MS);
    await expect.poll(() => (data.getState().lists['base /vm/instances']?.rows as { id: number; status: string }[]).find((vm) => vm.id === 41001)?.status).toBe('running');
    await fire();
    expect(waits.at(-1)).toBe(4000);
    unwatch();
  });

  it('follows no transition in an instance list no view shows: the first poll outdates it, the next backs off without reading it', async () => {
    const { data, poller: p, waits, fire, client } = setup();
    await p.poke();
    const instances = { path: '/vm/instances' };
    // Cached, booting as last seen, but not on screen (under an xray, in a tab not shown).
    data.getState().put(instances, [{ id: 41001, label: 'web-1', status: 'booting' }]);
    let reads = 0;
    const page = client.page.bind(client);
    client.page = ((path: string, opts: never) => (path === '/vm/instances' && reads++, page(path, opts))) as typeof client.page;
    await fire();
    expect(waits.at(-1)).toBe(FAST_MS);
    expect(data.getState().lists['base /vm/instances']).toMatchObject({ outdated: true, rows: [{ status: 'booting' }] });
    await fire();
    await fire();
    expect(waits.slice(-2)).toEqual([4000, 8000]);
    expect(reads).toBe(0);
  });

  it('keeps a long instance list current row by row: moving rows and evented ones are fetched alone, vanished ones dropped', async () => {
    const { data, poller: p, fire } = setup();
    await p.poke();
    const instances = { path: '/vm/instances' };
    const unwatch = data.getState().watch(instances);
    // Longer than one page: refetching it for a few rows would cost every page.
    const filler = Array.from({ length: 150 }, (_, i) => ({ id: 900_000 + i, label: `filler-${i}`, status: 'running' }));
    const rowsNow = () => data.getState().lists['base /vm/instances']!.rows as { id: number; label: string; status: string }[];
    data.getState().put(instances, [{ id: 41001, label: 'web-1', status: 'booting' }, { id: 41002, label: 'stale', status: 'running' }, { id: 999_999, label: 'gone', status: 'provisioning' }, ...filler]);
    await fire();
    await expect.poll(() => rowsNow().find((vm) => vm.id === 41001)?.status).toBe('running');
    expect(rowsNow().some((vm) => vm.id === 999_999)).toBe(false);
    expect(rowsNow()).toHaveLength(152);

    await control('/events', { action: 'vm_update', status: 'notification', entity: { id: 41002, label: 'web-2', type: 'vm' } });
    await fire();
    await expect.poll(() => rowsNow().find((vm) => vm.id === 41002)?.label).toBe('web-2');
    expect(rowsNow()).toHaveLength(152);
    unwatch();
  });

  it('backs off to the idle pace while nothing happens, and is fast again when something does', async () => {
    const { poller: p, waits, fire } = setup();
    await p.poke();
    for (let i = 0; i < 4; i++) await fire();
    expect(waits.slice(-5)).toEqual([FAST_MS, 4000, 8000, IDLE_MS, IDLE_MS]);
    await control('/events', { action: 'nodebalancer_update', status: 'notification', entity: { id: 1, label: 'lb-eu', type: 'nodebalancer' } });
    await fire();
    expect(waits.at(-1)).toBe(FAST_MS);
  });

  // Last: the event it starts stays under way on this service.
  it('stays fast while an event is under way', async () => {
    const { poller: p, waits, fire, session } = setup();
    await p.poke();
    await control('/events', { action: 'vm_reboot', status: 'started', entity: { id: 41002, label: 'web-2', type: 'vm' } });
    await fire();
    expect(session.getState().message?.text).toBe('vm_reboot started: web-2');
    for (let i = 0; i < 3; i++) await fire();
    expect(waits.slice(-4)).toEqual([FAST_MS, FAST_MS, FAST_MS, FAST_MS]);
  });
});
