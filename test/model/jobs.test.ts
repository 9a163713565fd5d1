import { describe, expect, it } from 'vitest';
import type { EventRecord } from '../../src/model/events.js';
import { JOB_TIMEOUT_MS, jobOutcome, jobProgress, jobTimedOut, jobWithEvents, jobWithFailure, type Job } from '../../src/model/jobs.js';
import { isoSeconds } from '../../src/model/time.js';

const T0 = Date.parse('2026-11-27T10:00:00Z');
const BOOT = { event: 'vm_boot', name: 'Boot', doing: 'Booting' };

const job = (labels: string[] = ['web-1'], after: number | null = 100): Job => ({
  id: 1,
  kind: BOOT,
  parts: labels.map((label, i) => ({ subject: { type: 'vm', id: 7 + i, label }, state: 'waiting', percent: null })),
  started: T0,
  moved: T0,
  after: after ?? undefined,
  state: 'waiting',
});

const event = (over: Partial<EventRecord> = {}): EventRecord => ({
  id: 101,
  action: 'vm_boot',
  created: isoSeconds(T0),
  duration: null,
  entity: { id: 7, label: 'web-1', type: 'vm', url: '/v4/vm/instances/7' },
  secondary_entity: null,
  percent_complete: 0,
  rate: null,
  read: false,
  seen: false,
  status: 'started',
  time_remaining: null,
  username: 'admin',
  message: null,
  ...over,
});

describe('a job followed through its events', () => {
  it('a kind with a following event ends with that event, not the first; a failure of either fails it', () => {
    const create = (): Job => ({ ...job(), kind: { event: 'vm_create', name: 'Creation', doing: 'Creating', then: 'vm_boot' } });
    const created = event({ id: 101, action: 'vm_create', status: 'finished', percent_complete: 100, duration: 8 });
    let j = jobWithEvents(create(), [created], T0 + 8000);
    expect(j.state).toBe('under way');
    // An older boot of the same instance is not the one that follows.
    j = jobWithEvents(j, [event({ id: 99, status: 'finished' }), created], T0 + 9000);
    expect(j.state).toBe('under way');
    j = jobWithEvents(j, [event({ id: 102, status: 'finished', percent_complete: 100, duration: 5 }), created], T0 + 14_000);
    expect(j.state).toBe('finished');
    expect(jobOutcome(j)).toBe('Creation of web-1 finished in 14 s');
    const failed = jobWithEvents(jobWithEvents(create(), [created], T0 + 8000), [event({ id: 102, status: 'failed', message: 'no config' })], T0 + 9000);
    expect(jobOutcome(failed)).toBe('Creation of web-1 failed: no config');
  });

  it('waits for its event, shows a percentage only between 0 and 100, and ends with its duration', () => {
    let j = job();
    expect(jobProgress(j)).toBe('waiting for its event');
    j = jobWithEvents(j, [event()], T0 + 1000);
    expect(j.state).toBe('under way');
    // A server jumping from 0 to 100 says nothing between: "under way", never "0%".
    expect(jobProgress(j)).toBe('under way');
    j = jobWithEvents(j, [event({ percent_complete: 45 })], T0 + 2000);
    expect(jobOutcome(j)).toBe('Booting web-1 ▶ 45%');
    j = jobWithEvents(j, [event({ status: 'finished', percent_complete: 100, duration: 8 })], T0 + 9000);
    expect(j.state).toBe('finished');
    expect(jobOutcome(j)).toBe('Boot of web-1 finished in 8 s');
  });

  it('fails with the event\'s message when the event fails', () => {
    const j = jobWithEvents(job(), [event({ status: 'failed', percent_complete: 100, message: 'host out of capacity' })], T0 + 3000);
    expect(j.state).toBe('failed');
    expect(jobOutcome(j)).toBe('Boot of web-1 failed: host out of capacity');
  });

  it('fails with the request\'s error when the service refuses the action', () => {
    const j = jobWithFailure(job(), 7, 'HTTP 500: Internal Server Error', T0 + 100);
    expect(jobOutcome(j)).toBe('Boot of web-1 failed: HTTP 500: Internal Server Error');
  });

  it('takes neither an older event, another action, nor another item', () => {
    const j = job();
    expect(jobWithEvents(j, [event({ id: 99 }), event({ action: 'vm_reboot' }), event({ entity: { id: 8, label: 'db', type: 'vm', url: '' } })], T0)).toBe(j);
    // No event seen before the job: the event's own time decides.
    const early = job(['web-1'], null);
    expect(jobWithEvents(early, [event({ created: isoSeconds(T0 - 60_000) })], T0)).toBe(early);
    expect(jobWithEvents(early, [event()], T0).state).toBe('under way');
  });

  it('follows a capture by its image, which the event names as its secondary entity', () => {
    const capture: Job = { ...job(), kind: { event: 'disk_imagize', name: 'Capture', doing: 'Capturing' }, parts: [{ subject: { type: 'image', id: 'private/12', label: 'golden' }, state: 'waiting', percent: null }] };
    const imagize = (over: Partial<EventRecord>) => event({ action: 'disk_imagize', secondary_entity: { id: 'private/12', label: 'golden', type: 'image', url: '/v4/images/private/12' }, ...over });
    expect(jobWithEvents(capture, [imagize({ secondary_entity: { id: 'private/13', label: 'other', type: 'image', url: '' } })], T0)).toBe(capture);
    const done = jobWithEvents(capture, [imagize({ status: 'finished', percent_complete: 100, duration: 20 })], T0 + 20_000);
    expect(jobOutcome(done)).toBe('Capture of golden finished in 20 s');
  });

  it('says its end is not known when no word came in time, never that it is done', () => {
    const j = jobWithEvents(job(), [event()], T0);
    expect(jobTimedOut(j, T0 + JOB_TIMEOUT_MS - 1)).toBe(j);
    const late = jobTimedOut(j, T0 + JOB_TIMEOUT_MS);
    expect(late.state).toBe('unknown');
    expect(jobOutcome(late)).toMatch(/^Boot of web-1: no word of its end after 600 s; how it ended is not known/);
  });

  it('is one job over the items of a bulk action, each matched to its own event', () => {
    let j = job(['web-1', 'web-2', 'web-3']);
    j = jobWithFailure(j, 9, 'HTTP 503: busy', T0);
    j = jobWithEvents(j, [event({ status: 'finished', percent_complete: 100 })], T0 + 1000);
    expect(jobOutcome(j)).toBe('Booting 3 instances ▶ 2/3 done');
    j = jobWithEvents(j, [event({ id: 102, entity: { id: 8, label: 'web-2', type: 'vm', url: '' }, status: 'finished', percent_complete: 100 })], T0 + 2000);
    expect(j.state).toBe('failed');
    expect(jobOutcome(j)).toBe('Boot of 3 instances: 2 finished, 1 failed (web-3: HTTP 503: busy)');
  });
});
