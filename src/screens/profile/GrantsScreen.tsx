import { useMemo } from 'react';
import { useApp } from '../../app/context.js';
import type { ScreenProps } from '../../app/screen.js';
import { Spinner } from '../../components/Spinner.js';
import { grantLines, UNRESTRICTED_LINES } from './grants-lines.js';
import { failedLines, staleLine } from './object-status.js';
import { ScrollPane, type PaneLine } from './ScrollPane.js';
import { GRANTS_QUERY, useObject } from './use-object.js';

/** What the acting user may do: everything (unrestricted, 204), or its grants, account-wide and per entity. */
export function GrantsScreen({ width, height }: ScreenProps) {
  const { data } = useApp();
  const { entry, value } = useObject(GRANTS_QUERY);
  const lines = useMemo<PaneLine[]>(() => {
    const failed = failedLines(entry, 'grants');
    if (failed || value === undefined) return failed ?? [];
    return [...staleLine(entry), ...(value === null ? UNRESTRICTED_LINES : grantLines(value, width))];
  }, [entry, value, width]);
  if (!entry || (entry.status === 'loading' && value === undefined)) return <Spinner label="loading grants…" />;
  return <ScrollPane title="Grants" lines={lines} width={width} height={height} commands={{ refresh: () => void data.getState().refresh(GRANTS_QUERY) }} />;
}
