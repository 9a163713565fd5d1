import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import { SelectTable } from '../../components/SelectTable.js';
import type { JobSubject } from '../../model/jobs.js';
import { entityRoute } from './entity-link.js';

interface Props<T extends { id: number }> extends ScreenProps {
  title: string;
  columns: Column<T>[];
  /** Oldest first, as the session added them. */
  items: readonly T[];
  /** What the view's filter words are looked for in. */
  text: (item: T) => string;
  /** The item Enter goes to. */
  subject: (item: T) => JobSubject;
  status: ReactNode;
  empty: ReactNode;
}

/** A record this session keeps of its own (jobs, alerts), newest first: the filter's words all in a row's text, Enter to its item. */
export function NewestFirstList<T extends { id: number }>({ entry, width, height, title, columns, items, text, subject, status, empty }: Props<T>) {
  const { views, nav } = useApp();
  const words = useStore(views, (s) => s.views[entry.key]?.filter ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const shown = items
    .slice()
    .reverse()
    .filter((item) => words.every((w) => text(item).toLowerCase().includes(w)));
  return (
    <SelectTable
      entry={entry}
      title={title}
      columns={columns}
      rows={shown}
      rowKey={(item) => String(item.id)}
      onOpen={(item) => {
        const { type, id, label } = subject(item);
        const route = entityRoute(type, id, label);
        nav.getState().push(route.screen, route.params, label);
      }}
      status={status}
      empty={empty}
      width={width}
      height={height}
    />
  );
}
