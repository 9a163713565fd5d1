import type { ManagedIssue, ManagedService } from '../../api/managed.js';
import { issueNumber } from './issue-model.js';
import { apiTime, parseAge } from './time.js';

/**
 * The triage filter: words separated by spaces, all of which must match.
 * "<1h" keeps issues detected within the last hour, ">30m" those older than
 * 30 minutes (s, m, h, d); any other word matches the ticket (number or
 * text) or an affected service's label, status, type, address or contact
 * group, ignoring case.
 */
export const TRIAGE_FILTER_HELP = 'words match service, group, status, ticket · <1h, >30m: age';

export interface TriageRow {
  issue: ManagedIssue;
  services: { id: number; service?: ManagedService }[];
}

export function triageRows(issues: readonly ManagedIssue[], services: readonly ManagedService[]): TriageRow[] {
  const byId = new Map(services.map((s) => [s.id, s]));
  return [...issues]
    .sort((a, b) => apiTime(b.created) - apiTime(a.created) || b.id - a.id)
    .map((issue) => ({ issue, services: issue.services.map((id) => ({ id, service: byId.get(id) })) }));
}

const haystack = (row: TriageRow) =>
  [
    String(row.issue.entity.id),
    issueNumber(row.issue),
    row.issue.entity.label,
    ...row.services.flatMap(({ service: s }) => (s ? [s.label, s.status, s.service_type, s.address, s.consultation_group] : [])),
  ]
    .join('\u0000')
    .toLowerCase();

export function filterTriage(rows: readonly TriageRow[], filter: string, now = Date.now()): readonly TriageRow[] {
  const words = filter.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return rows;
  return rows.filter((row) => {
    const text = haystack(row);
    const age = now - apiTime(row.issue.created);
    return words.every((w) => {
      const bound = parseAge(w);
      if (bound) return bound.newer ? age <= bound.ms : age >= bound.ms;
      return text.includes(w.toLowerCase());
    });
  });
}
