import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { createDataStore } from '../../src/store/data.js';
import { jobOutcome } from '../../src/model/jobs.js';
import { submitWithJob } from '../../src/components/list/action-jobs.js';
import { createInstanceForm } from '../../src/screens/instances/instance-forms.js';
import { announceTo, createJobsStore, runAsJob } from '../../src/store/jobs.js';
import { startLivePoller, type LivePoller, type Timers } from '../../src/store/live.js';
import { createSessionStore } from '../../src/store/session.js';
import type { RunningService } from '../../src/server/service.js';
import { OWNER_TOKEN, call, startTestService } from '../helpers/service.js';

const BOOT = { event: 'vm_boot', name: 'Boot', doing: 'Booting' };

let svc: RunningService;
beforeAll(async () => {
  // Realistic lifecycles on a stopped clock: a boot stays under way until the test moves time on.
  svc = await startTestService({ seed: 'demo', speed: 'realistic' });
  expect((await call(svc, 'POST', '/__control/clock', { body: { frozen: true } })).status).toBe(200);
});
afterAll(() => svc.close());

let poller: LivePoller | undefined;
afterEach(() => poller?.stop());

/** Timers the test runs by hand: the next poll happens when the test says. */
function setup() {
  const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN, retryDelaysMs: [] });
  const session = createSessionStore({ endpoint: svc.baseUrl, embedded: false, readOnly: false, refreshSeconds: 60 });
  const jobs = createJobsStore(announceTo(session));
  const timers: Timers = { set: () => 0, clear: () => {}, now: () => Date.now() };
  poller = startLivePoller({ client, data: createDataStore({ client }), session, jobs, timers });
  return { client, session, jobs, poller };
}

/** A stopped instance of its own, so tests do not share one. */
async function stoppedInstance(label: string): Promise<{ id: number; label: string }> {
  const made = await call(svc, 'POST', '/vm/instances', { body: { label, region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42', booted: false } });
  expect(made.status).toBe(200);
  // Provisioned, and left offline.
  await call(svc, 'POST', '/__control/clock', { body: { advance_seconds: 60 } });
  expect((await call(svc, 'GET', `/vm/instances/${made.body.id}`)).body.status).toBe('offline');
  return { id: made.body.id, label };
}

describe('a job followed by the live poller on a real service', () => {
  it('shows a boot under way, then says how it ended in place of the raw event', async () => {
    const { client, session, jobs, poller: p } = setup();
    await p.poke();
    const vm = await stoppedInstance('job-boot');
    await runAsJob(jobs, BOOT, { type: 'vm', ...vm }, () => client.post(`/vm/instances/${vm.id}/boot`));
    await p.poke();
    expect(jobs.getState().jobs[0]).toMatchObject({ state: 'under way' });
    await call(svc, 'POST', '/__control/clock', { body: { advance_seconds: 30 } });
    await p.poke();
    const [job] = jobs.getState().jobs;
    expect(job!.state).toBe('finished');
    expect(session.getState().messages).toContainEqual(expect.objectContaining({ text: 'Boot of job-boot finished in 5 s', kind: 'success' }));
    // The raw event line is not said: the job's message stands for it.
    expect(session.getState().messages.map((m) => m.text)).not.toContain('vm_boot finished: job-boot');
  });

  it('ends "failed" with the service\'s reason when the service fails the request (a fault rule)', async () => {
    const { client, session, jobs, poller: p } = setup();
    await p.poke();
    const vm = await stoppedInstance('job-fault');
    const rule = await call(svc, 'POST', '/__control/faults', { body: { method: 'POST', path: `/v4/vm/instances/${vm.id}/boot`, action: 'error', status: 500, reason: 'host on fire' } });
    try {
      await expect(runAsJob(jobs, BOOT, { type: 'vm', ...vm }, () => client.post(`/vm/instances/${vm.id}/boot`))).rejects.toThrow();
      expect(jobs.getState().jobs[0]!.state).toBe('failed');
      expect(jobOutcome(jobs.getState().jobs[0]!)).toMatch(/^Boot of job-fault failed: HTTP 500: host on fire/);
      // The caller says the request's failure; the job does not say it twice.
      expect(session.getState().messages).toHaveLength(0);
    } finally {
      await call(svc, 'DELETE', `/__control/faults/${rule.body.id}`);
    }
  });

  it('ends "failed" when the action\'s event fails (the instance deleted under it), never "finished"', async () => {
    const { client, session, jobs, poller: p } = setup();
    await p.poke();
    const vm = await stoppedInstance('job-gone');
    await runAsJob(jobs, BOOT, { type: 'vm', ...vm }, () => client.post(`/vm/instances/${vm.id}/boot`));
    await p.poke();
    // Another client removes it while it boots: the boot's event ends failed.
    expect((await call(svc, 'DELETE', `/v4/vm/instances/${vm.id}`)).status).toBe(200);
    await call(svc, 'POST', '/__control/clock', { body: { advance_seconds: 30 } });
    await p.poke();
    expect(jobs.getState().jobs[0]!.state).toBe('failed');
    expect(session.getState().message).toMatchObject({ text: expect.stringMatching(/^Boot of job-gone failed/), kind: 'error' });
  });

  it('a creation is a job once the answer names the new instance, and ends with its provisioning', async () => {
    const { client, session, jobs, poller: p } = setup();
    await p.poke();
    const ctx = { client, params: {}, invalidate: () => {}, notify: () => {}, push: () => {}, jobs };
    const body = { label: 'job-new', region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42', booted: false };
    // The service's event comes before the poller looks: the job still takes it (it is newer than what was known when the form was sent).
    await submitWithJob(ctx, createInstanceForm, undefined, body, undefined);
    await p.poke();
    expect(jobs.getState().jobs[0]).toMatchObject({ state: 'under way', kind: { name: 'Creation' } });
    await call(svc, 'POST', '/__control/clock', { body: { advance_seconds: 60 } });
    await p.poke();
    // The demo's monitoring may speak after it: the job's message is among the last.
    expect(session.getState().messages.map((m) => m.text)).toContain('Creation of job-new finished in 8 s');
    expect(jobs.getState().jobs[0]!.state).toBe('finished');
  });

  it('a creation that boots ends when the instance is running, not when its provisioning event finishes', async () => {
    const { client, session, jobs, poller: p } = setup();
    await p.poke();
    const ctx = { client, params: {}, invalidate: () => {}, notify: () => {}, push: () => {}, jobs };
    const body = { label: 'job-booted', region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42' };
    const vm = (await submitWithJob(ctx, createInstanceForm, undefined, body, undefined)) as { id: number };
    // Provisioned (vm_create finished) and booting: the job is still under way.
    await call(svc, 'POST', '/__control/clock', { body: { advance_seconds: 9 } });
    await p.poke();
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('booting');
    const job = () => jobs.getState().jobs.find((j) => j.parts[0]!.subject.label === 'job-booted')!;
    expect(job().state).toBe('under way');
    expect(session.getState().messages.map((m) => m.text).join('\n')).not.toMatch(/Creation of job-booted/);
    await call(svc, 'POST', '/__control/clock', { body: { advance_seconds: 60 } });
    await p.poke();
    expect((await call(svc, 'GET', `/vm/instances/${vm.id}`)).body.status).toBe('running');
    expect(job().state).toBe('finished');
    expect(session.getState().messages.map((m) => m.text).join('\n')).toMatch(/Creation of job-booted finished in \d+ s/);
  });
});
