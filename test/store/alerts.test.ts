import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { createDataStore } from '../../src/store/data.js';
import { createAlertsStore, watchAlerts, type AlertWatch } from '../../src/store/alerts.js';
import { createJobsStore } from '../../src/store/jobs.js';
import { startLivePoller, type LivePoller, type Timers } from '../../src/store/live.js';
import { createSessionStore } from '../../src/store/session.js';
import type { AccountEvent } from '../../src/api/events.js';
import type { RunningService } from '../../src/server/service.js';
import { OWNER_TOKEN, call, startTestService } from '../helpers/service.js';

const offline = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 't', retryDelaysMs: [] });
const INSTANCES = { path: '/vm/instances' };
const SERVICES = { path: '/managed/services' };
const ISSUES = { path: '/managed/issues' };

let watch: AlertWatch | undefined;
afterEach(() => watch?.stop());

function local() {
  const data = createDataStore({ client: offline });
  const jobs = createJobsStore();
  const alerts = createAlertsStore();
  watch = watchAlerts({ data, jobs, alerts });
  const texts = () => alerts.getState().alerts.map((a) => a.text);
  return { data, jobs, alerts, texts, put: data.getState().put };
}

const vm = (id: number, status: string) => ({ id, label: `web-${id}`, status });
const ev = (id: number, action: string, status: string, entity: Record<string, unknown>) => ({ id, action, status, entity }) as unknown as AccountEvent;

describe('alerts from what the app reads anyway', () => {
  it('an instance going down unasked is one alert, whether seen in the list, in an event, or both; a new spell alerts again', () => {
    const { put, texts, alerts } = local();
    // The first sight is the baseline: an instance already offline is no news.
    put(INSTANCES, [vm(1, 'running'), vm(2, 'offline')]);
    expect(texts()).toEqual([]);
    watch!.events([ev(10, 'vm_shutdown', 'started', { type: 'vm', id: 1, label: 'web-1' })], new Set());
    put(INSTANCES, [vm(1, 'shutting_down'), vm(2, 'offline')]);
    put(INSTANCES, [vm(1, 'offline'), vm(2, 'offline')]);
    watch!.events([ev(10, 'vm_shutdown', 'finished', { type: 'vm', id: 1, label: 'web-1' })], new Set());
    expect(texts()).toEqual(['web-1 is shutting down (not from this app)']);
    expect(alerts.getState().unread).toBe(1);
    put(INSTANCES, [vm(1, 'running'), vm(2, 'offline')]);
    put(INSTANCES, [vm(1, 'stopped'), vm(2, 'offline')]);
    expect(texts()).toEqual(['web-1 is shutting down (not from this app)', 'web-1 went stopped (not from this app)']);
    alerts.getState().read();
    expect(alerts.getState().unread).toBe(0);
  });

  it('says nothing of what this app did: an instance shut down by a job of this session, or that job failing', () => {
    const { put, texts, jobs } = local();
    put(INSTANCES, [vm(1, 'running')]);
    jobs.getState().start({ event: 'vm_shutdown', name: 'Shutdown', doing: 'Shutting down' }, [{ type: 'vm', id: 1, label: 'web-1' }]);
    put(INSTANCES, [vm(1, 'offline')]);
    watch!.events([ev(11, 'vm_shutdown', 'failed', { type: 'vm', id: 1, label: 'web-1' })], new Set([11]));
    expect(texts()).toEqual([]);
  });

  it('a service turning to problem, a new issue and a failed job of someone else alert once each', () => {
    const { put, texts } = local();
    put(SERVICES, [{ id: 1, label: 'shop', status: 'ok' }]);
    put(ISSUES, [{ id: 5, created: '', services: [2], entity: { id: 50, label: 'old issue', type: 'ticket', url: '' } }]);
    put(SERVICES, [{ id: 1, label: 'shop', status: 'problem' }]);
    put(SERVICES, [{ id: 1, label: 'shop', status: 'problem' }]);
    watch!.events([ev(20, 'ticket_create', 'notification', { type: 'ticket', id: 51, label: 'shop down' })], new Set());
    put(ISSUES, [
      { id: 5, created: '', services: [2], entity: { id: 50, label: 'old issue', type: 'ticket', url: '' } },
      { id: 6, created: '', services: [1], entity: { id: 51, label: 'shop down', type: 'ticket', url: '' } },
    ]);
    watch!.events([ev(21, 'vm_boot', 'failed', { type: 'vm', id: 3, label: 'db' })], new Set());
    watch!.events([ev(21, 'vm_boot', 'failed', { type: 'vm', id: 3, label: 'db' })], new Set());
    expect(texts()).toEqual(['Service shop is in problem', 'New managed issue: shop down', 'vm_boot failed: db']);
  });
});

describe('alerts on a real service, through the live poller', () => {
  let svc: RunningService;
  let poller: LivePoller | undefined;
  beforeAll(async () => {
    svc = await startTestService({ seed: 'demo' });
  });
  afterAll(() => svc.close());
  afterEach(() => poller?.stop());

  const journal = async (since: number) => ((await call(svc, 'GET', `/__control/requests?since=${since}&limit=1000`)).body.data as { method: string; path: string }[]).map((e) => `${e.method} ${e.path}`);
  const latest = async () => (await call(svc, 'GET', '/__control/requests?limit=1')).body.latest as number;

  /** Two polls around a new issue, with or without the alerts watching; what they asked the service. */
  async function pollsAroundAnIssue(withAlerts: boolean, service: number) {
    const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN, retryDelaysMs: [] });
    const session = createSessionStore({ endpoint: svc.baseUrl, embedded: false, readOnly: false, refreshSeconds: 60 });
    const data = createDataStore({ client });
    const alerts = createAlertsStore();
    const w = withAlerts ? watchAlerts({ data, alerts }) : undefined;
    const timers: Timers = { set: () => 0, clear: () => {}, now: () => Date.now() };
    const since = await latest();
    poller = startLivePoller({ client, data, session, timers, onEvents: w?.events });
    await poller.poke();
    const opened = await call(svc, 'POST', '/__control/managed/issues', { body: { services: [service], label: `issue on ${service}` } });
    await poller.poke();
    await poller.poke();
    poller.stop();
    w?.stop();
    await call(svc, 'POST', `/__control/managed/issues/${opened.body.id}/resolve`, {});
    return { alerts: alerts.getState().alerts.map((a) => `${a.kind}: ${a.text}`), requests: (await journal(since)).sort() };
  }

  it('raises the issue and the problem once each, with not one request more than the poller makes without them', async () => {
    const without = await pollsAroundAnIssue(false, 1);
    const withAlerts = await pollsAroundAnIssue(true, 1);
    expect(withAlerts.alerts).toEqual([expect.stringMatching(/^issue: New managed issue: /), expect.stringMatching(/^problem: Service .+ is in problem$/)]);
    expect(withAlerts.requests).toEqual(without.requests);
    expect(withAlerts.requests.length).toBeGreaterThan(0);
  });
});
