import { useEffect } from 'react';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import { listQuery, type ScreenProps } from '../../app/screen.js';
import { ListScreen } from '../../components/list/ListScreen.js';
import type { Finding } from '../../model/audit.js';
import { queryKey } from '../../store/data.js';
import { auditList } from './audit-list.js';

/**
 * `:audit`: the generic list of findings (marks, bulk fixes, export come with
 * it), its high findings counted in the header each time it is computed (and between visits from the cache: header-count.ts). Not
 * a list screen itself, so neither search nor the home view computes it.
 */
export function AuditScreen(props: ScreenProps) {
  const { data, session } = useApp();
  const key = queryKey(listQuery(auditList.list!, props.entry.params, data));
  const entry = useStore(data, (s) => s.lists[key]);
  useEffect(() => {
    if (entry?.status !== 'ready') return;
    session.setState({ auditHigh: (entry.rows as Finding[]).filter((f) => f.severity === 'high').length });
  }, [entry?.status, entry?.rows]);
  return <ListScreen def={auditList} {...props} />;
}
