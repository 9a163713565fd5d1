import { useEffect, useMemo, useRef } from 'react';
import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { ISSUES_PATH, getIssue, type ManagedContact, type ManagedCredential, type ManagedIssue, type ManagedService, type ManagedVMSettings } from '../../api/managed.js';
import { useApp } from '../../app/context.js';
import { PRIORITY } from '../../app/key-router.js';
import type { ScreenProps } from '../../app/screen.js';
import { useScreenCtx } from '../../app/use-screen-ctx.js';
import { useCommands } from '../../app/use-commands.js';
import { JsonView } from '../../components/JsonView.js';
import { Spinner } from '../../components/Spinner.js';
import { useListData } from '../../components/list/use-list-data.js';
import { clamp, windowStart } from '../../components/window.js';
import type { ListEntry, ListQuery } from '../../store/data.js';
import { DEFAULT_VIEW, type ListView, type Overlay } from '../../store/views.js';
import { issueContext, issueNumber, type InstanceRef } from './issue-model.js';
import { issueLines } from './issue-lines.js';
import { ItemOverlay } from './ItemOverlay.js';
import { GOTO, ITEM_SPECS, itemKey, itemName, jumpTo } from './item-specs.js';
import { LineView } from './LineView.js';
import { Q } from './queries.js';
import { scopeKnowledge } from '../../store/session.js';

const rowsOf = <T,>(entry: ListEntry | undefined) => (entry?.rows ?? []) as T[];

/**
 * One issue with everything needed to act on it, on one screen: the affected
 * services (timeout, expected body, notes), the contacts of each service's
 * group with email and phones, its credentials (labels), the SSH access of
 * the instances at its address, and the ticket. j/k select a line; Enter
 * jumps to it, e edits it, a offers its actions (disable/enable monitoring…).
 */
export function IssueScreen({ entry, width, height }: ScreenProps) {
  const { views, data, nav, session } = useApp();
  const id = Number(entry.params.issueId);
  const issueQuery = useMemo<ListQuery>(() => ({ path: `${ISSUES_PATH}/${id}`, load: async (c) => [await getIssue(c, id)] }), [id]);
  const issueEntry = useListData(issueQuery);
  const services = useListData(Q.services);
  const contacts = useListData(Q.contacts);
  const credentials = useListData(Q.credentials);
  const vmSettings = useListData(Q.vmSettings);
  const instances = useListData(Q.instances);
  const view = useStore(views, (s) => s.views[entry.key] ?? DEFAULT_VIEW);
  // The edit key is marked once the token's scopes are known.
  useStore(session, scopeKnowledge);
  const ctx = useScreenCtx(entry.params);
  const issue = rowsOf<ManagedIssue>(issueEntry)[0];

  const lines = useMemo(() => {
    if (!issue) return [];
    const contexts = issueContext(issue, {
      services: rowsOf<ManagedService>(services),
      contacts: rowsOf<ManagedContact>(contacts),
      credentials: rowsOf<ManagedCredential>(credentials),
      vmSettings: rowsOf<ManagedVMSettings>(vmSettings),
      instances: rowsOf<InstanceRef>(instances),
    });
    return issueLines(issue, contexts, width);
  }, [issue, services, contacts, credentials, vmSettings, instances, width]);
  const selectable = useMemo(() => lines.flatMap((l, i) => (l.item ? [i] : [])), [lines]);

  /** The selected line: by item key when it is still there, else by position. */
  const selectedAt = (key: string | undefined, index: number) => {
    const byKey = key === undefined ? -1 : selectable.findIndex((i) => itemKey(lines[i]!.item!) === key);
    return byKey >= 0 ? byKey : clamp(index, 0, selectable.length - 1);
  };
  const current = () => {
    const v = views.getState().get(entry.key);
    const n = selectedAt(v.selectedKey, v.selectedIndex);
    return { v, n, item: selectable.length ? lines[selectable[n]!]!.item : undefined };
  };
  const update = (patch: Partial<ListView>) => views.getState().update(entry.key, patch);
  const select = (to: (n: number) => number) => {
    if (!selectable.length) return;
    const n = clamp(to(current().n), 0, selectable.length - 1);
    update({ selectedIndex: n, selectedKey: itemKey(lines[selectable[n]!]!.item!) });
  };
  const withItem = (make: (key: string) => Overlay) => () => {
    const { item } = current();
    if (item) update({ overlay: make(itemKey(item)) });
  };
  const refresh = () => {
    for (const q of [issueQuery, Q.services, Q.contacts, Q.credentials, Q.vmSettings, Q.instances]) void data.getState().refresh(q);
  };
  const body = Math.max(1, height);
  const page = Math.max(1, Math.floor(body / 2));

  const selectedItem = current().item;
  useCommands(
    view.overlay
      ? { back: () => update({ overlay: null }) }
      : {
          up: () => select((n) => n - 1),
          down: () => select((n) => n + 1),
          pageUp: () => select((n) => n - page),
          pageDown: () => select((n) => n + page),
          top: () => select(() => 0),
          bottom: () => select(() => selectable.length - 1),
          open: () => {
            const { item } = current();
            if (item) jumpTo(item, { nav, views }, GOTO);
          },
          edit: () => {
            const { item } = current();
            const missing = item && session.getState().missingScope(ITEM_SPECS[item.kind].writeScope);
            if (missing) session.getState().notify(`Cannot edit ${itemName(item)}: ${missing}`, 'error');
            else withItem((key) => ({ kind: 'form', form: 'edit', key }))();
          },
          actions: withItem((key) => ({ kind: 'menu', key })),
          detail: withItem((key) => ({ kind: 'detail', key })),
          json: issue ? () => update({ overlay: { kind: 'json', key: 'issue' } }) : undefined,
          refresh,
        },
    {
      priority: PRIORITY.screen,
      title: 'Issue',
      modal: view.overlay ? 'screen' : false,
      marks: { edit: selectedItem && (session.getState().missingScope(ITEM_SPECS[selectedItem.kind].writeScope) ?? undefined) },
    },
  );

  // The item an overlay is about went away (deleted elsewhere, or a refresh dropped it).
  const overlayKey = view.overlay && 'key' in view.overlay && view.overlay.key !== 'issue' ? view.overlay.key : undefined;
  const overlayItem = overlayKey === undefined ? undefined : lines.find((l) => l.item && itemKey(l.item) === overlayKey)?.item;
  const gone = overlayKey !== undefined && lines.length > 0 && !overlayItem;
  useEffect(() => {
    if (!gone) return;
    update({ overlay: null });
    session.getState().notify('That item no longer exists', 'error');
  });

  const start = useRef(0);
  if (issueEntry?.status === 'error') {
    const gone = issueEntry.errorStatus === 404;
    return (
      <Text color={gone ? 'green' : 'red'} wrap="wrap">
        {gone ? 'This issue is resolved: it is no longer open. Esc goes back.' : `Could not load the issue: ${issueEntry.error}. Press r to retry.`}
      </Text>
    );
  }
  if (!issue || !services || services.status === 'loading') return <Spinner label="loading the issue…" />;

  const overlay = view.overlay;
  if (overlay?.kind === 'json' && overlay.key === 'issue') {
    return <JsonView title={`issue ${issueNumber(issue)} · JSON`} value={issue} width={width} height={height} onClose={() => update({ overlay: null })} />;
  }
  if (overlay && !gone) return <ItemOverlay entry={entry} item={overlayItem} overlay={overlay} ctx={ctx} width={width} height={height} />;

  const n = selectedAt(view.selectedKey, view.selectedIndex);
  const selectedLine = selectable.length ? selectable[n]! : 0;
  // The first item shows the issue's heading above it too.
  start.current = n === 0 ? 0 : windowStart(start.current, selectedLine, body, lines.length);
  const failed = [contacts, credentials, vmSettings, instances].filter((l) => l?.status === 'error');
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <LineView lines={lines} start={start.current} height={body - (failed.length ? 1 : 0)} selected={selectedLine} />
      {failed.length > 0 && <Text color="red" wrap="truncate-end">{`Some of it could not load: ${failed.map((l) => l!.error).join('; ')}`}</Text>}
    </Box>
  );
}
