import { instancePath } from '../../api/instances.js';
import { defineScreen } from '../../app/screen.js';
import { actionsVia } from '../../app/actions-via.js';
import { instanceActions } from './instance-actions.js';
import { loadOverview, type Part } from './overview.js';
import { INSTANCE_GRANT, OVERVIEW_SCREEN, SUB_LISTS } from './sub-lists.js';

const subList = (part: string) => SUB_LISTS.find((s) => s.part === part);

/** d and y show a line's own record: named as what it is ("Disks of db-primary", "issue #21400"), not by the instance every line acts on. */
function recordTitle(r: Part): string {
  if (r.record === r.vm) return r.vm.label;
  if (subList(r.part)) return `${r.name} of ${r.vm.label}`;
  return r.title ?? `${r.name.trim()} ${r.summary}`;
}

/** Enter on an instance: its status and parts; Enter on Disks, Configs or Backups opens that list; a acts on the instance. */
export const overview = defineScreen<Part>({
  id: OVERVIEW_SCREEN,
  title: 'Overview',
  params: ['id'],
  list: {
    path: (p) => instancePath(p.id!),
    load: loadOverview,
    rowKey: (r) => r.part,
    // Every line stands for the instance: its actions act on it, by its label.
    label: (r) => r.vm.label,
    // The list's own screen title follows in the breadcrumbs: no crumb for the line.
    crumb: (r) => (subList(r.part) ? '' : (r.to?.crumb ?? r.name)),
    writeScope: 'vms:read_write',
    grant: INSTANCE_GRANT,
    // Enter on a line opens its list: the menu's ways there would only repeat it.
    actions: actionsVia(
      instanceActions.filter((a) => !SUB_LISTS.some((sub) => a.id === `open-${sub.part}`)),
      (r: Part) => r.vm,
    ),
    columns: [
      { key: 'name', title: 'Part', width: 10 },
      { key: 'state', title: 'State', width: 13, color: (r) => r.color },
      { key: 'summary', title: 'Summary' },
    ],
    detail: { fetch: async (r) => r.record, title: recordTitle },
    instance: (r) => r.vm,
    // Y copies the instance the overview is about, whichever line is selected.
    subject: (r) => ({ record: r.vm, path: instancePath(r.vm.id) }),
    drill: (r, p) => {
      const sub = subList(r.part);
      return sub ? { screen: sub.screen, params: { id: p.id! } } : r.to;
    },
  },
});
