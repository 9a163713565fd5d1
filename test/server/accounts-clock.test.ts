import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../src/server/service.js';
import { call, OWNER_TOKEN, startTestService } from '../helpers/service.js';
import { createInstance } from './instances-fixtures.js';

/** Each account's time is its own: a test moving one account's clock moves no other's. */
let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ speed: 'realistic' });
});
afterAll(() => svc.close());

const clock = async (token?: string) => (await call(svc, 'GET', '/__control/clock', { token })).body as { now: string; frozen: boolean };

describe('the clock of an added account', () => {
  it('moves that account’s lifecycles alone; the primary’s clock and instances stay where they were', async () => {
    const other = (await call(svc, 'POST', '/__control/accounts', { body: { seed: 'empty', speed: 'realistic' } })).body as { id: number; token: string };
    const mine = await createInstance(svc, { label: 'primary-vm' });
    const theirs = await createInstance(svc, { label: 'other-vm' }, other.token);
    expect([mine.status, theirs.status]).toEqual(['provisioning', 'provisioning']);
    const primaryBefore = Date.parse((await clock()).now);

    const moved = await call(svc, 'POST', '/__control/clock', { token: other.token, body: { advance_seconds: 3600, frozen: true } });
    expect(moved.status).toBe(200);
    expect(Date.parse((await clock(other.token)).now) - Date.now()).toBeGreaterThan(3500_000);
    expect((await call(svc, 'GET', `/vm/instances/${theirs.id}`, { token: other.token })).body.status).toBe('running');

    // The primary's clock runs on the machine's time, unfrozen; its instance is still being built.
    const primary = await clock();
    expect(primary.frozen).toBe(false);
    expect(Date.parse(primary.now) - primaryBefore).toBeLessThan(60_000);
    expect((await call(svc, 'GET', `/vm/instances/${mine.id}`)).body.status).toBe('provisioning');
  });
});

describe('the Date header', () => {
  it('is the clock of the account the request acts on', async () => {
    const other = (await call(svc, 'POST', '/__control/accounts', { body: { seed: 'empty' } })).body as { token: string };
    await call(svc, 'POST', '/__control/clock', { token: other.token, body: { advance_seconds: 86_400, frozen: true } });
    const frozenAt = Date.parse((await clock(other.token)).now);
    const theirs = await fetch(`${svc.baseUrl}/regions`, { headers: { authorization: `Bearer ${other.token}` } });
    // Second resolution: the header drops the milliseconds.
    expect(Math.abs(Date.parse(theirs.headers.get('date')!) - frozenAt)).toBeLessThan(1000);
    const mine = await fetch(`${svc.baseUrl}/regions`, { headers: { authorization: `Bearer ${OWNER_TOKEN}` } });
    expect(Math.abs(Date.parse(mine.headers.get('date')!) - Date.now())).toBeLessThan(5000);
  });
});
