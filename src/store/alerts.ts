import { createStore, type StoreApi } from 'zustand/vanilla';
import { INSTANCES_PATH, type Instance } from '../api/instances.js';
import { ISSUES_PATH, SERVICES_PATH, type ManagedIssue, type ManagedService } from '../api/managed.js';
import type { AccountEvent } from '../api/events.js';
import { eventSummary } from '../api/events.js';
import { flawOf } from '../model/response.js';
import { jobEnded, type JobSubject } from '../model/jobs.js';
import { apiPathOfKey, type DataStore, type ListEntry } from './data.js';
import type { JobsStore } from './jobs.js';

/**
 * Alerts: what happened on the account while the app ran that the operator
 * did not do here and should not miss (a new managed issue, a service turning
 * to problem, an instance going down unasked, a failed job). Each happening is
 * one alert whichever way it was seen (an event, a list read again); the
 * header counts the unread ones and `:alerts` lists them.
 */

export type AlertKind = 'issue' | 'problem' | 'down' | 'failed';

export interface Alert {
  id: number;
  /** What makes two sightings one happening. */
  key: string;
  at: number;
  kind: AlertKind;
  text: string;
  /** The item Enter goes to. */
  subject: JobSubject;
}

/** Alerts kept for `:alerts`; the oldest go first. */
export const ALERTS_KEPT = 200;
/** Happenings remembered as alerted, the oldest forgotten first: bounded, and far more than the list shows. */
export const HAPPENINGS_KEPT = 5_000;

export interface AlertsState {
  alerts: Alert[];
  unread: number;
  /** Adds an alert unless one for the same happening was raised; returns it when new. */
  raise(key: string, kind: AlertKind, text: string, subject: JobSubject, now?: number): Alert | undefined;
  /** Every alert read (`:alerts` opened). */
  read(): void;
}

export type AlertsStore = StoreApi<AlertsState>;

export function createAlertsStore(): AlertsStore {
  let next = 1;
  // Keys of the happenings alerted: an alert that fell off the list must still not come back (a Set keeps the order added).
  const raised = new Set<string>();
  return createStore<AlertsState>((set, get) => ({
    alerts: [],
    unread: 0,
    raise: (key, kind, text, subject, now = Date.now()) => {
      if (raised.has(key)) return undefined;
      raised.add(key);
      if (raised.size > HAPPENINGS_KEPT) raised.delete(raised.values().next().value!);
      const alert = { id: next++, key, at: now, kind, text, subject };
      // Unread are never more than the list holds.
      set({ alerts: [...get().alerts.slice(1 - ALERTS_KEPT), alert], unread: Math.min(get().unread + 1, ALERTS_KEPT) });
      return alert;
    },
    read: () => {
      if (get().unread) set({ unread: 0 });
    },
  }));
}

/** Statuses of an instance that is down or going down. */
const DOWN = new Set(['offline', 'stopped', 'shutting_down']);
/** Events that take an instance down. */
const DOWN_EVENTS = new Set(['vm_shutdown']);

/** A job of this session on this item that has not ended, or ended this recently: what it did was asked for. */
const ASKED_GRACE_MS = 60_000;

const rowsOf = (entry: ListEntry | undefined) => (entry && entry.status === 'ready' ? entry.rows : undefined);

export interface AlertWatch {
  /** The events a poll found new or moved on, and those this session's jobs took. */
  events(changed: readonly AccountEvent[], taken: ReadonlySet<number>): void;
  stop(): void;
}

/**
 * Raises alerts from what the app reads anyway: the events the live poller
 * reads, and the cached services, issues and instance lists whenever anything
 * reads them again. The first sight of a list is its baseline: only changes
 * after it alert.
 */
export function watchAlerts({ data, jobs, alerts, now = Date.now }: { data: DataStore; jobs?: JobsStore; alerts: AlertsStore; now?: () => number }): AlertWatch {
  const raise = alerts.getState().raise;
  /** The last status of each instance seen in a cached list; an instance gone down is alerted once until it is seen up again. */
  const vmStatus = new Map<number, string>();
  const vmDown = new Set<number>();
  let downs = 0;
  /** Services in problem at the last look (undefined before the first); a service's problem spell is numbered so a second one alerts again. */
  let problems: Set<number> | undefined;
  const spells = new Map<number, number>();
  let issues: Set<number> | undefined;

  const asked = (type: string, id: number | string) => {
    const t = now();
    return (jobs?.getState().jobs ?? []).some(
      (j) => (!jobEnded(j.state) || t - (j.ended ?? j.moved) < ASKED_GRACE_MS) && j.parts.some((p) => p.subject.type === type && String(p.subject.id) === String(id)),
    );
  };

  const vmGoneDown = (id: number, label: string, how: string) => {
    if (vmDown.has(id)) return;
    vmDown.add(id);
    if (asked('vm', id)) return;
    raise(`vm:${id}:down:${++downs}`, 'down', `${label} ${how} (not from this app)`, { type: 'vm', id, label });
  };

  const readInstances = (rows: readonly unknown[]) => {
    for (const row of rows) {
      const vm = row as Instance;
      const before = vmStatus.get(vm.id);
      // Most rows of a refresh are as they were: one lookup each, before anything else is asked of them.
      if (before === vm.status || flawOf(row)) continue;
      vmStatus.set(vm.id, vm.status);
      if (!DOWN.has(vm.status)) vmDown.delete(vm.id);
      else if (before !== undefined && !DOWN.has(before)) vmGoneDown(vm.id, vm.label, vm.status === 'shutting_down' ? 'is shutting down' : `went ${vm.status}`);
      else if (before === undefined) vmDown.add(vm.id);
    }
  };

  const readServices = (rows: readonly unknown[]) => {
    const now = new Set<number>();
    for (const row of rows) {
      if (flawOf(row)) continue;
      const s = row as ManagedService;
      if (s.status !== 'problem') continue;
      now.add(s.id);
      if (problems && !problems.has(s.id)) {
        const spell = (spells.get(s.id) ?? 0) + 1;
        spells.set(s.id, spell);
        raise(`service:${s.id}:problem:${spell}`, 'problem', `Service ${s.label} is in problem`, { type: 'managed_service', id: s.id, label: s.label });
      }
    }
    problems = now;
  };

  const issueAlert = (ticket: number, label: string) => raise(`issue:${ticket}`, 'issue', `New managed issue: ${label}`, { type: 'ticket', id: ticket, label });

  const readIssues = (rows: readonly unknown[]) => {
    const ids = new Set<number>();
    for (const row of rows) {
      if (flawOf(row)) continue;
      const issue = row as ManagedIssue;
      ids.add(issue.entity.id);
      if (issues && !issues.has(issue.entity.id)) issueAlert(issue.entity.id, issue.entity.label);
    }
    issues = ids;
  };

  const readers: [string, (rows: readonly unknown[]) => void][] = [
    [INSTANCES_PATH, readInstances],
    [SERVICES_PATH, readServices],
    [ISSUES_PATH, readIssues],
  ];
  /** The rows last read of each list: a list entry changes more often than its rows (refreshing, checked). */
  const seen = new Map<string, readonly unknown[]>();
  const look = (lists: Record<string, ListEntry>) => {
    // Only the lists alerts read are followed, and only while cached: no rows of a dropped list are held here.
    for (const key of seen.keys()) if (!Object.hasOwn(lists, key)) seen.delete(key);
    for (const key of Object.keys(lists)) {
      const path = apiPathOfKey(key);
      const reading = readers.filter(([p]) => p === path);
      if (reading.length === 0) continue;
      const entry = lists[key];
      const rows = rowsOf(entry);
      if (!rows || entry!.error || seen.get(key) === rows) continue;
      seen.set(key, rows);
      for (const [, read] of reading) read(rows);
    }
  };
  look(data.getState().lists);
  const unsubscribe = data.subscribe((s, prev) => {
    if (s.lists !== prev.lists) look(s.lists);
  });

  return {
    events: (changed, taken) => {
      for (const e of changed) {
        if (taken.has(e.id) || !e.entity) continue;
        const { type, id, label } = e.entity;
        if (e.action === 'ticket_create') issueAlert(Number(id), label);
        else if (e.status === 'failed') raise(`event:${e.id}:failed`, 'failed', eventSummary(e), { type, id, label });
        else if (type === 'vm' && DOWN_EVENTS.has(e.action)) vmGoneDown(Number(id), label, 'is shutting down');
      }
    },
    stop: unsubscribe,
  };
}
