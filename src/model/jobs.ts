import type { EventRecord } from './events.js';
import { plural } from './plural.js';
import { parseApiTime } from './time.js';

/**
 * A long action the app started (boot, clone, snapshot, …), followed through
 * the account's events until it ends. The outcome is the events' word, never
 * the request's: an accepted request whose event fails is a failed job, and
 * one whose event never ends is not known, not done.
 */

export type JobState = 'waiting' | 'under way' | 'finished' | 'failed' | 'unknown';

/** What an event is about, as the event's entity names it. */
export interface JobSubject {
  type: string;
  id: number | string;
  label: string;
}

/** What kind of job an action starts: the event it makes and how the job is named. */
export interface JobKind {
  /** The event's action (`vm_boot`). */
  event: string;
  /** "Boot": the end message says "Boot of web-1 finished". */
  name: string;
  /** "Booting": the progress line; from the name when absent. */
  doing: string;
  /**
   * The event that follows the first on the same item before the job's work
   * is done (a creation that boots: `vm_boot`): the job ends with it, not
   * with the first.
   */
  then?: string;
}

/** One item of a job (a bulk action has several). */
export interface JobPart {
  subject: JobSubject;
  state: JobState;
  eventId?: number;
  percent: number | null;
  /** Seconds the event took, as the event says. */
  duration?: number;
  /** Why it failed: the request's error or the event's message. */
  reason?: string;
  /** The first event's id once it finished, while the part waits for the kind's `then`. */
  followed?: number;
}

export interface Job {
  id: number;
  kind: JobKind;
  parts: JobPart[];
  started: number;
  /** Only events newer than this are this job's (ids grow); undefined when no event had been seen yet. */
  after?: number;
  /** When anything last moved: the timeout counts from here. */
  moved: number;
  ended?: number;
  state: JobState;
}

/** With no news for this long a job's outcome is said to be unknown. */
export const JOB_TIMEOUT_MS = 10 * 60_000;

const ENDED: ReadonlySet<JobState> = new Set(['finished', 'failed', 'unknown']);
export const jobEnded = (state: JobState) => ENDED.has(state);

/** The job's state from its parts': failed if any failed, unknown if any is, under way while any is not over. */
function overall(parts: readonly JobPart[]): JobState {
  if (parts.some((p) => !jobEnded(p.state))) return parts.some((p) => p.state === 'under way') ? 'under way' : 'waiting';
  if (parts.some((p) => p.state === 'failed')) return 'failed';
  if (parts.some((p) => p.state === 'unknown')) return 'unknown';
  return 'finished';
}

const names = (ref: EventRecord['entity'], s: JobSubject) => ref !== null && ref.type === s.type && String(ref.id) === String(s.id);
/** An event is about its entity, or about what it made: a capture's event is the instance's, its image the secondary entity. */
const sameSubject = (e: EventRecord, s: JobSubject) => names(e.entity, s) || names(e.secondary_entity, s);

/** Whether the event is this part's: its action and item, newer than the job, and not already another part's. */
function claims(job: Job, part: JobPart, e: EventRecord): boolean {
  if (part.eventId !== undefined) return part.eventId === e.id;
  if (e.action !== (part.followed === undefined ? job.kind.event : job.kind.then) || !sameSubject(e, part.subject)) return false;
  if (part.followed !== undefined) return e.id > part.followed;
  // Without a known newest event, the event's own time says whether it came after the job (a second of slack for its whole seconds).
  return job.after !== undefined ? e.id > job.after : parseApiTime(e.created) >= job.started - 1000;
}

function partFrom(kind: JobKind, part: JobPart, e: EventRecord): JobPart {
  const state: JobState = e.status === 'finished' || e.status === 'notification' ? 'finished' : e.status === 'failed' ? 'failed' : 'under way';
  // The first event done, the work goes on under the next: the part waits for it, and its time is the job's own.
  if (state === 'finished' && kind.then && part.followed === undefined) return { ...part, eventId: undefined, followed: e.id, state: 'under way', percent: null };
  return {
    ...part,
    eventId: e.id,
    state,
    percent: e.percent_complete,
    duration: part.followed === undefined ? (e.duration ?? undefined) : undefined,
    reason: state === 'failed' ? (e.message ?? 'the event says it failed, without a reason') : undefined,
  };
}

/** The job after these events; the same object when none of them is its own. */
export function jobWithEvents(job: Job, events: readonly EventRecord[], now: number): Job {
  if (jobEnded(job.state)) return job;
  let changed = false;
  const taken = new Set(job.parts.map((p) => p.eventId).filter((id) => id !== undefined));
  const parts = job.parts.map((part) => {
    if (jobEnded(part.state)) return part;
    const e = events.find((ev) => claims(job, part, ev) && (part.eventId === ev.id || !taken.has(ev.id)));
    if (!e) return part;
    const next = partFrom(job.kind, part, e);
    if (next.state === part.state && next.percent === part.percent && next.followed === part.followed) return part;
    taken.add(e.id);
    changed = true;
    return next;
  });
  return changed ? settle({ ...job, parts, moved: now }, now) : job;
}

/** The job after one of its items' request failed: that item failed with the request's error. */
export function jobWithFailure(job: Job, subjectId: number | string, reason: string, now: number): Job {
  const parts = job.parts.map((p) => (String(p.subject.id) === String(subjectId) && !jobEnded(p.state) ? { ...p, state: 'failed' as const, reason } : p));
  return settle({ ...job, parts, moved: now }, now);
}

/** The job once its time is up: what has not ended is not known. */
export function jobTimedOut(job: Job, now: number, timeoutMs = JOB_TIMEOUT_MS): Job {
  if (jobEnded(job.state) || now - job.moved < timeoutMs) return job;
  const parts = job.parts.map((p) => (jobEnded(p.state) ? p : { ...p, state: 'unknown' as const }));
  return settle({ ...job, parts }, now);
}

function settle(job: Job, now: number): Job {
  const state = overall(job.parts);
  return { ...job, state, ended: jobEnded(state) ? now : undefined };
}

/** "web-1", or "3 instances" for a bulk job. */
export function jobTarget(job: Job): string {
  return job.parts.length === 1 ? job.parts[0]!.subject.label : plural(job.parts.length, job.parts[0]?.subject.type === 'vm' ? 'instance' : 'item');
}

/** The progress of a job under way: a percentage only strictly between 0 and 100, since a server may jump from 0 to 100. */
export function jobProgress(job: Job): string {
  const moving = job.parts.filter((p) => !jobEnded(p.state));
  if (job.parts.length > 1) return `${job.parts.length - moving.length}/${job.parts.length} done`;
  const p = job.parts[0]!;
  if (p.state === 'waiting') return 'waiting for its event';
  return p.percent !== null && p.percent > 0 && p.percent < 100 ? `${p.percent}%` : 'under way';
}

const seconds = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

/** How the job ended, in words: the message line says this in place of the raw event. */
export function jobOutcome(job: Job): string {
  const what = `${job.kind.name} of ${jobTarget(job)}`;
  const took = job.parts.length === 1 && job.parts[0]!.duration !== undefined ? `${job.parts[0]!.duration} s` : seconds((job.ended ?? job.moved) - job.started);
  if (job.state === 'finished') return `${what} finished in ${took}`;
  if (!jobEnded(job.state)) return `${gerundLine(job)} ▶ ${jobProgress(job)}`;
  const failed = job.parts.filter((p) => p.state === 'failed');
  const unknown = job.parts.filter((p) => p.state === 'unknown');
  if (job.parts.length === 1) {
    if (job.state === 'failed') return `${what} failed: ${failed[0]!.reason}`;
    return `${what}: no word of its end after ${seconds(JOB_TIMEOUT_MS)}; how it ended is not known (:events)`;
  }
  const finished = job.parts.length - failed.length - unknown.length;
  const first = failed[0] && ` (${failed[0].subject.label}: ${failed[0].reason})`;
  return [`${what}: ${finished} finished`, failed.length && `${failed.length} failed${first}`, unknown.length && `${unknown.length} not known`].filter(Boolean).join(', ');
}

/** "Booting web-1". */
export const gerundLine = (job: Job) => `${job.kind.doing} ${jobTarget(job)}`;
