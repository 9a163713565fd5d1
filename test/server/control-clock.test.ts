import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import type { RunningService } from '../../src/server/service.js';
import { isoSeconds, parseApiTime } from '../../src/model/time.js';
import { call, errorFields, OWNER_TOKEN, RESTRICTED_TOKEN, startTestService } from '../helpers/service.js';
import { createInstance } from './instances-fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'vmtui-clock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECOND = 1000;
const HOUR = 3600 * SECOND;
const DAY = 24 * HOUR;

interface ClockState {
  now: string;
  frozen: boolean;
  offset_seconds: number;
}

const clock = async (svc: RunningService): Promise<ClockState> => {
  const r = await call(svc, 'GET', '/__control/clock');
  expect(r.status).toBe(200);
  return r.body as ClockState;
};
const setClock = async (svc: RunningService, body: unknown): Promise<ClockState> => {
  const r = await call(svc, 'POST', '/__control/clock', { body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as ClockState;
};
const nowOf = async (svc: RunningService) => Date.parse((await clock(svc)).now);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const eventsOf = async (svc: RunningService, filter: unknown) =>
  (await call(svc, 'GET', '/account/events', { filter })).body.data as { id: number; action: string; status: string; created: string; duration: number | null }[];

describe('reading and setting the clock', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService({ speed: 'realistic' });
  });
  afterAll(() => svc.close());

  it('answers only the control token', async () => {
    expect((await call(svc, 'GET', '/__control/clock', { token: null })).status).toBe(401);
    expect((await call(svc, 'GET', '/__control/clock', { token: RESTRICTED_TOKEN })).status).toBe(403);
    expect((await call(svc, 'POST', '/__control/clock', { token: RESTRICTED_TOKEN, body: { advance_seconds: 60 } })).status).toBe(403);
    expect((await call(svc, 'POST', '/__control/clock', { token: 'nope', body: { frozen: true } })).status).toBe(403);
    expect((await clock(svc)).frozen).toBe(false);
  });

  it('starts at the machine’s time, running', async () => {
    const before = Date.now();
    const state = await clock(svc);
    expect(state).toEqual({ now: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), frozen: false, offset_seconds: expect.any(Number) });
    expect(Date.parse(state.now)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(state.now)).toBeLessThanOrEqual(Date.now());
    expect(Math.abs(state.offset_seconds)).toBeLessThan(1);
  });

  it('refuses what is not a change in the errors shape, and leaves the clock as it was', async () => {
    const before = await nowOf(svc);
    const bad: [unknown, (string | undefined)[]][] = [
      [{ advance_seconds: 0 }, ['advance_seconds']],
      [{ advance_seconds: -60 }, ['advance_seconds']],
      [{ advance_seconds: '60' }, ['advance_seconds']],
      [{ advance_seconds: null }, ['advance_seconds']],
      [{ advance_seconds: 10 * 365 * 86400 + 1 }, ['advance_seconds']],
      [{ frozen: 'yes' }, ['frozen']],
      [{ frozen: 1, advance_seconds: 60 }, ['frozen']],
      // A misspelt field is refused, even by the tolerant service: taken as absent, it would leave the clock where it was.
      [{ advance: 60 }, ['advance']],
      [{ advance_seconds: 60, colour: 'red' }, ['colour']],
      [{}, [undefined]],
    ];
    for (const [body, fields] of bad) {
      const r = await call(svc, 'POST', '/__control/clock', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors.length, JSON.stringify(r.body)).toBeGreaterThan(0);
      expect(errorFields(r), JSON.stringify(body)).toEqual(fields);
    }
    expect((await call(svc, 'POST', '/__control/clock', { raw: '[60]' })).status).toBe(400);
    expect((await call(svc, 'POST', '/__control/clock', { raw: '{"__proto__": {"frozen": true}, "advance_seconds": 60}' })).status).toBe(400);
    expect((await call(svc, 'POST', '/__control/clock', { raw: '{"advance_seconds": 6' })).status).toBe(400);
    expect((await call(svc, 'POST', '/__control/clock')).status).toBe(400);
    const after = await clock(svc);
    expect(after.frozen).toBe(false);
    expect(Date.parse(after.now) - before).toBeLessThan(5 * SECOND);
  });

  it('moves forward by the advance, and says how far ahead of the machine it is', async () => {
    const before = await nowOf(svc);
    const state = await setClock(svc, { advance_seconds: 3600 });
    expect(Date.parse(state.now) - before).toBeGreaterThanOrEqual(HOUR);
    expect(Date.parse(state.now) - before).toBeLessThan(HOUR + 5 * SECOND);
    expect(state.offset_seconds).toBeGreaterThanOrEqual(3599);
    expect(state.offset_seconds).toBeLessThan(3605);
    expect(state.frozen).toBe(false);
    // Fractions of a second, to the millisecond.
    const frozen = await setClock(svc, { frozen: true });
    const half = await setClock(svc, { advance_seconds: 0.5 });
    expect(Date.parse(half.now) - Date.parse(frozen.now)).toBe(500);
    await setClock(svc, { frozen: false });
  });

  it('stops short of the year 2200, saying how far it can still go', async () => {
    const far = await startTestService({ speed: 'realistic' });
    try {
      let refused;
      for (let i = 0; i < 30 && !refused; i++) {
        const r = await call(far, 'POST', '/__control/clock', { body: { advance_seconds: 10 * 365 * 86400 } });
        if (r.status !== 200) refused = r;
      }
      expect(refused?.status).toBe(400);
      expect(errorFields(refused!)).toEqual(['advance_seconds']);
      expect(refused!.body.errors[0].reason).toMatch(/^The clock stops at 2200-01-01T00:00:00\.000Z: it can go \d+ seconds further$/);
      expect(new Date((await clock(far)).now).getUTCFullYear()).toBeGreaterThanOrEqual(2190);
      // The account still works there: timestamps keep the API's format.
      const vm = await createInstance(far, { label: 'far-future' });
      expect(vm.created).toMatch(/^21\d\d-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    } finally {
      await far.close();
    }
  });
});

describe('lifecycles follow the clock (speed realistic)', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService({ speed: 'realistic' });
  });
  afterAll(() => svc.close());

  it('an instance created, then 60 s later: running, with the events in between at their own times', async () => {
    const vm = await createInstance(svc, { label: 'web-1' });
    expect(vm.status).toBe('provisioning');
    const created = parseApiTime(vm.created);
    const state = await setClock(svc, { advance_seconds: 60 });
    expect(Date.parse(state.now) - created).toBeGreaterThanOrEqual(60 * SECOND);

    const now = (await call(svc, 'GET', `/vm/instances/${vm.id}`)).body;
    expect(now.status).toBe('running');
    const events = (await eventsOf(svc, { 'entity.id': vm.id, 'entity.type': 'vm' })).reverse();
    expect(events.map((e) => [e.action, e.status])).toEqual([
      ['vm_create', 'finished'],
      ['vm_boot', 'finished'],
    ]);
    // Provisioning takes 8 s and the boot 5 s: the boot started when provisioning finished, not when the clock was moved.
    const [create, boot] = events as [(typeof events)[0], (typeof events)[0]];
    expect(parseApiTime(create.created)).toBe(created);
    expect(create.duration).toBe(8);
    expect(parseApiTime(boot.created) - created).toBe(8 * SECOND);
    expect(boot.duration).toBe(5);
    expect(parseApiTime(now.updated) - created).toBe(13 * SECOND);
  });

  it('a shutdown and a boot 40 s apart carry times 40 s apart', async () => {
    const vm = await createInstance(svc, { label: 'web-2' });
    await setClock(svc, { advance_seconds: 30 });
    expect((await call(svc, 'POST', `/vm/instances/${vm.id}/shutdown`)).status).toBe(200);
    await setClock(svc, { advance_seconds: 40 });
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('offline');
    expect((await call(svc, 'POST', `/vm/instances/${vm.id}/boot`)).status).toBe(200);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('booting');
    await setClock(svc, { advance_seconds: 10 });
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');
    const [boot, shutdown] = (await eventsOf(svc, { 'entity.id': vm.id, 'entity.type': 'vm' })).filter((e) => e.action !== 'vm_create');
    expect([boot!.action, shutdown!.action]).toEqual(['vm_boot', 'vm_shutdown']);
    expect(parseApiTime(boot!.created) - parseApiTime(shutdown!.created)).toBeGreaterThanOrEqual(40 * SECOND);
    expect(parseApiTime(boot!.created) - parseApiTime(shutdown!.created)).toBeLessThan(42 * SECOND);
  });

  it('a job scheduled by a job runs within the same advance, and not before its time', async () => {
    const vm = await createInstance(svc, { label: 'web-3' });
    // 8 s of provisioning, then a 5 s boot that provisioning schedules: 10 s ends between the two.
    await setClock(svc, { advance_seconds: 10 });
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('booting');
    await setClock(svc, { advance_seconds: 3.5 });
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');
  });

  it('creates records at the clock’s time', async () => {
    const now = await nowOf(svc);
    const key = await call(svc, 'POST', '/profile/sshkeys', { body: { label: 'k', ssh_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFfz4oV0lX2mJrQ4mX9h0rWn3kCq8mW1yJ8gk3Zr3m7u a@b' } });
    expect(key.status).toBe(200);
    expect(Math.abs(parseApiTime(key.body.created) - now)).toBeLessThan(3 * SECOND);
    // The clock is hours ahead of the machine here: the record says the account's time, not the machine's.
    expect(parseApiTime(key.body.created) - Date.now()).toBeGreaterThan(60 * SECOND);
  });
});

describe('a frozen clock', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService({ speed: 'realistic' });
  });
  afterAll(() => svc.close());

  it('keeps now fixed across requests, and the simulation does not move until it is advanced', async () => {
    const vm = await createInstance(svc, { label: 'frozen' });
    const frozen = await setClock(svc, { frozen: true });
    expect(frozen.frozen).toBe(true);
    // 300 ms short of the end of provisioning: the simulation's timer ticks meanwhile, and time must not pass.
    await setClock(svc, { advance_seconds: 7.7 });
    await sleep(700);
    const still = await clock(svc);
    expect(still.frozen).toBe(true);
    expect(Date.parse(still.now) - Date.parse(frozen.now)).toBe(7700);
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('provisioning');
    expect(await nowOf(svc)).toBe(Date.parse(still.now));

    await setClock(svc, { advance_seconds: 0.3 });
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('booting');
  });

  it('runs on from where it stood when let go, behind the machine by the time it stood still', async () => {
    const stood = await clock(svc);
    await sleep(300);
    const running = await setClock(svc, { frozen: false });
    expect(running.frozen).toBe(false);
    expect(Date.parse(running.now) - Date.parse(stood.now)).toBeLessThan(100);
    await sleep(200);
    expect((await nowOf(svc)) - Date.parse(running.now)).toBeGreaterThanOrEqual(150);
  });

  it('freezes and advances in one request: by exactly the advance', async () => {
    const before = await nowOf(svc);
    const state = await setClock(svc, { frozen: true, advance_seconds: 90 });
    expect(state.frozen).toBe(true);
    expect(Date.parse(state.now) - before).toBeGreaterThanOrEqual(90 * SECOND);
    expect(Date.parse(state.now) - before).toBeLessThan(91 * SECOND);
    await sleep(50);
    expect(await nowOf(svc)).toBe(Date.parse(state.now));
  });
});

describe('expiries follow the clock', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService({ speed: 'realistic' });
  });
  afterAll(() => svc.close());

  it('a token works until its expiry, then answers 401', async () => {
    const expiry = isoSeconds((await nowOf(svc)) + HOUR);
    const made = await call(svc, 'POST', '/profile/tokens', { body: { label: 'ci', scopes: '*', expiry } });
    expect(made.status).toBe(200);
    const token = made.body.token as string;
    expect((await call(svc, 'GET', '/profile', { token })).status).toBe(200);
    await setClock(svc, { advance_seconds: 3590 });
    expect((await call(svc, 'GET', '/profile', { token })).status).toBe(200);
    await setClock(svc, { advance_seconds: 11 });
    const refused = await call(svc, 'GET', '/profile', { token });
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].reason).toBe('Token has expired');
    expect((await call(svc, 'GET', '/profile', { token: OWNER_TOKEN })).status).toBe(200);
  });

  it('a new token’s expiry must lie in the clock’s future, not the machine’s', async () => {
    await setClock(svc, { advance_seconds: 2 * 86400 });
    const machineTomorrow = isoSeconds(Date.now() + DAY);
    const r = await call(svc, 'POST', '/profile/tokens', { body: { label: 'late', expiry: machineTomorrow } });
    expect(r.status).toBe(400);
    expect(errorFields(r)).toEqual(['expiry']);
    const ok = await call(svc, 'POST', '/profile/tokens', { body: { label: 'later', expiry: isoSeconds((await nowOf(svc)) + DAY) } });
    expect(ok.status).toBe(200);
  });

  it('a trusted device is listed until its expiry, then gone', async () => {
    const now = await nowOf(svc);
    const device = { id: 1, created: isoSeconds(now - DAY), expiry: isoSeconds(now + 2 * DAY), last_authenticated: isoSeconds(now - HOUR), last_remote_addr: '203.0.113.9', user_agent: 'Firefox' };
    svc.store.tx(() => svc.store.insert('device', 1, device, { parent: '1' }));
    expect((await call(svc, 'GET', '/profile/devices')).body.results).toBe(1);
    expect((await call(svc, 'GET', '/profile/devices/1')).status).toBe(200);
    await setClock(svc, { advance_seconds: 2 * 86400 + 10 });
    expect((await call(svc, 'GET', '/profile/devices')).body.results).toBe(0);
    expect((await call(svc, 'GET', '/profile/devices/1')).status).toBe(404);
  });

  it('a pre-signed URL works until expires_in has passed, then is refused', async () => {
    expect((await call(svc, 'POST', '/object-storage/buckets', { body: { label: 'clocked', cluster: 'us-east-1' } })).status).toBe(200);
    const sign = (method: string, extra = {}) =>
      call(svc, 'POST', '/object-storage/buckets/us-east-1/clocked/object-url', { body: { name: 'a.txt', method, expires_in: 360, ...extra } });
    const put = (await sign('PUT', { content_type: 'text/plain' })).body.url as string;
    expect((await request(put, { method: 'PUT', body: 'hello', headers: { 'content-type': 'text/plain' } })).statusCode).toBe(200);
    const get = (await sign('GET')).body.url as string;
    const first = await request(get);
    expect(first.statusCode).toBe(200);
    expect(await first.body.text()).toBe('hello');
    // The URL says when it expires in the account's time.
    expect(Number(new URL(get).searchParams.get('expires')) * 1000 - (await nowOf(svc))).toBeGreaterThan(355 * SECOND);
    await setClock(svc, { advance_seconds: 350 });
    const still = await request(get);
    expect(still.statusCode).toBe(200);
    await still.body.dump();
    await setClock(svc, { advance_seconds: 11 });
    const late = await request(get);
    expect(late.statusCode).toBe(403);
    expect(await late.body.json()).toEqual({ errors: [{ reason: 'Request has expired' }] });
  });
});

describe('monitoring and stats follow the clock (the demo account)', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startTestService({ seed: 'demo', speed: 'realistic' });
    // Only the advances move the account in these tests.
    svc.sim.stop();
  });
  afterAll(() => svc.close());

  const tickets = async () => (await call(svc, 'GET', '/account/events', { filter: { action: 'ticket_create' } })).body as { data: { created: string }[]; results: number };

  it('breaks and mends services during an advance, each issue at its own time', async () => {
    const start = await nowOf(svc);
    const before = (await tickets()).results;
    await setClock(svc, { advance_seconds: 1800 });
    const listed = await tickets();
    const opened = listed.data.slice(0, listed.results - before);
    // Every 60–120 s: 15 to 30 in half an hour.
    expect(opened.length).toBeGreaterThanOrEqual(14);
    expect(opened.length).toBeLessThanOrEqual(31);
    const times = opened.map((e) => parseApiTime(e.created)).sort((a, b) => a - b);
    expect(times[0]! - start).toBeGreaterThanOrEqual(59 * SECOND);
    expect(times.at(-1)!).toBeLessThanOrEqual(start + 1800 * SECOND);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(59 * SECOND);
    // Issues last 30–90 s: at most one is open now beyond the demo's two.
    expect((await call(svc, 'GET', '/managed/issues')).body.results).toBeLessThanOrEqual(3);
  });

  it('the 24-hour stats end at the clock’s time', async () => {
    await setClock(svc, { advance_seconds: 3 * 86400 });
    const now = await nowOf(svc);
    const stats = (await call(svc, 'GET', '/managed/stats')).body.data as Record<string, { x: number; y: number }[]>;
    const cpu = stats.cpu!;
    expect(cpu).toHaveLength(288);
    expect(now - cpu.at(-1)!.x).toBeGreaterThanOrEqual(0);
    expect(now - cpu.at(-1)!.x).toBeLessThan(5 * 60 * SECOND);
  });

  it('a balancer’s stats grow from its creation as the clock moves', async () => {
    const nb = (await call(svc, 'POST', '/nodebalancers', { body: { region: 'us-east', label: 'clocked-lb' } })).body;
    expect((await call(svc, 'POST', `/nodebalancers/${nb.id}/configs`, { body: {} })).status).toBe(200);
    const points = async () => ((await call(svc, 'GET', `/nodebalancers/${nb.id}/stats`)).body.data.connections as [number, number][]);
    expect((await points()).length).toBeLessThanOrEqual(1);
    await setClock(svc, { advance_seconds: 2 * 3600 });
    const grown = await points();
    expect(grown.length).toBeGreaterThanOrEqual(24);
    expect(grown.length).toBeLessThanOrEqual(25);
    expect((await nowOf(svc)) - grown.at(-1)![0]).toBeLessThan(5 * 60 * SECOND);
  });

  it('a ten-year advance takes moments: the monitoring replays its last hour only', async () => {
    const started = performance.now();
    const state = await setClock(svc, { advance_seconds: 10 * 365 * 86400 });
    expect(performance.now() - started).toBeLessThan(5000);
    // Events are kept 90 days: what is listed now is the replayed hour's.
    const listed = await tickets();
    expect(listed.results).toBeGreaterThanOrEqual(29);
    expect(listed.results).toBeLessThanOrEqual(61);
    for (const e of listed.data) expect(Date.parse(state.now) - parseApiTime(e.created)).toBeLessThanOrEqual(HOUR);
  });
});

describe('the clock is the account’s: kept across a restart, never taken back by a restore', () => {
  it('a restarted serve --data keeps the account’s time, frozen or not', async () => {
    const data = join(dir, 'restart.sqlite');
    const first = await startTestService({ data, speed: 'realistic' });
    const vm = await createInstance(first, { label: 'across' });
    const advanced = await setClock(first, { advance_seconds: 86400 });
    await first.close();

    const second = await startTestService({ data, speed: 'realistic' });
    try {
      const kept = await clock(second);
      expect(kept.frozen).toBe(false);
      expect(kept.offset_seconds).toBeGreaterThanOrEqual(86399);
      expect(Date.parse(kept.now)).toBeGreaterThanOrEqual(Date.parse(advanced.now));
      expect((await call(second, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');
      const frozen = await setClock(second, { frozen: true });
      await second.close();
      const third = await startTestService({ data, speed: 'realistic' });
      try {
        await sleep(50);
        expect(await clock(third)).toMatchObject({ now: frozen.now, frozen: true });
      } finally {
        await third.close();
      }
    } finally {
      await second.close();
    }
  });

  it('two services on one data file share the clock', async () => {
    const data = join(dir, 'shared.sqlite');
    const a = await startTestService({ data, speed: 'realistic' });
    const b = await startTestService({ data, speed: 'realistic' });
    try {
      const moved = await setClock(a, { advance_seconds: 7200, frozen: true });
      expect(await clock(b)).toMatchObject({ now: moved.now, frozen: true });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a restore keeps the current time; the restored jobs have the time they had left', async () => {
    const svc = await startTestService({ speed: 'realistic' });
    try {
      svc.sim.stop();
      const vm = await createInstance(svc, { label: 'restored' });
      const saved = await call(svc, 'POST', '/__control/snapshots', { body: { name: 'provisioning' } });
      // The snapshot's time is the account's.
      expect(Math.abs(parseApiTime(saved.body.created) - (await nowOf(svc)))).toBeLessThan(2 * SECOND);
      // Saved running; frozen an hour later.
      const frozen = await setClock(svc, { advance_seconds: 3600, frozen: true });
      expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');

      expect((await call(svc, 'POST', '/__control/snapshots/provisioning/restore')).status).toBe(200);
      expect(await clock(svc)).toMatchObject({ now: frozen.now, frozen: true });
      expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('provisioning');
      await setClock(svc, { advance_seconds: 7 });
      expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('provisioning');
      await setClock(svc, { advance_seconds: 7 });
      expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');

      // A reset starts the account over, not its time.
      const before = await clock(svc);
      expect((await call(svc, 'POST', '/__control/reset', { body: { seed: 'empty' } })).status).toBe(200);
      expect(await clock(svc)).toEqual({ ...before, offset_seconds: expect.any(Number) });
    } finally {
      await svc.close();
    }
  });

  it('an exported snapshot carries the clock it was saved with', async () => {
    const svc = await startTestService({ speed: 'realistic' });
    try {
      const frozen = await setClock(svc, { frozen: true, advance_seconds: 5 * 86400 });
      await call(svc, 'POST', '/__control/snapshots', { body: { name: 'fixture' } });
      const res = await request(`${svc.origin}/__control/snapshots/fixture/export`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } });
      const file = join(dir, 'fixture.sqlite');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(file, Buffer.from(await res.body.arrayBuffer()));
      const opened = await startTestService({ data: file, speed: 'realistic' });
      try {
        expect(await clock(opened)).toMatchObject({ now: frozen.now, frozen: true });
      } finally {
        await opened.close();
      }
    } finally {
      await svc.close();
    }
  });
});

describe('at speed instant', () => {
  it('advancing moves the time; lifecycles were done already', async () => {
    const svc = await startTestService();
    try {
      const vm = await createInstance(svc, { label: 'instant' });
      expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');
      const before = await nowOf(svc);
      const state = await setClock(svc, { advance_seconds: 600 });
      expect(Date.parse(state.now) - before).toBeGreaterThanOrEqual(600 * SECOND);
      expect((await call(svc, 'POST', `/vm/instances/${vm.id}/reboot`)).status).toBe(200);
      const [reboot] = await eventsOf(svc, { action: 'vm_reboot' });
      expect(reboot!.status).toBe('finished');
      expect(parseApiTime(reboot!.created)).toBeGreaterThanOrEqual(Math.floor(Date.parse(state.now) / 1000) * 1000);
    } finally {
      await svc.close();
    }
  });
});
