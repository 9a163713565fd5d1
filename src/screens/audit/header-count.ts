import type { DataStore } from '../../store/data.js';
import type { SessionStore } from '../../store/session.js';
import { loadAudit } from './load.js';

/** A pass over 10,000 instances takes tens of milliseconds: at most one per this long, after the cache settles. */
const SETTLE_MS = 2000;

/**
 * Counts the audit's high findings in the header as problem services are
 * counted: again whenever the cached lists change, from what is cached alone
 * (no request: an area not read yet is left out until a view reads it, and
 * `:audit` reads them all). Returns the stop.
 */
export function watchAuditCount(data: DataStore, session: SessionStore): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const count = async () => {
    timer = undefined;
    const findings = await loadAudit(data, Date.now(), { cachedOnly: true });
    if (!stopped) session.setState({ auditHigh: findings.filter((f) => f.severity === 'high').length });
  };
  const unsubscribe = data.subscribe((s, before) => {
    if (s.lists === before.lists || timer) return;
    timer = setTimeout(() => void count(), SETTLE_MS);
    timer.unref?.();
  });
  return () => {
    stopped = true;
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
}
