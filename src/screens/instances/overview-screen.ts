import { instancePath } from '../../api/instances.js';
import { defineScreen } from '../../app/screen.js';
import { loadOverview, type Part } from './overview.js';
import { OVERVIEW_SCREEN, SUB_LISTS } from './sub-lists.js';

const subList = (part: Part['part']) => SUB_LISTS.find((s) => s.part === part);

/** Enter on an instance: its status and parts; Enter on Disks, Configs or Backups opens that list. */
export const overview = defineScreen<Part>({
  id: OVERVIEW_SCREEN,
  title: 'Overview',
  params: ['id'],
  list: {
    path: (p) => instancePath(p.id!),
    load: loadOverview,
    rowKey: (r) => r.part,
    // The list's own screen title follows in the breadcrumbs: no crumb for the line.
    label: (r) => (subList(r.part) ? '' : r.name),
    columns: [
      { key: 'name', title: 'Part', width: 10 },
      { key: 'state', title: 'State', width: 13, color: (r) => r.color },
      { key: 'summary', title: 'Summary' },
    ],
    detail: { fetch: async (r) => r.record },
    drill: (r, p) => {
      const sub = subList(r.part);
      return sub && { screen: sub.screen, params: { id: p.id! } };
    },
  },
});
