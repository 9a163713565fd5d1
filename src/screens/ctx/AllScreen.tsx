import { useEffect } from 'react';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { ApiClient } from '../../api/client.js';
import { describeError } from '../../api/errors.js';
import type { AccountTarget } from '../../app/accounts.js';
import { useApp, type AppContextValue } from '../../app/context.js';
import type { Column, ScreenDef, ScreenProps } from '../../app/screen.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { SelectTable } from '../../components/SelectTable.js';
import { cellColor, cellText } from '../../components/table-layout.js';
import { plural } from '../../model/plural.js';
import { flawOf } from '../../model/response.js';
import { uncachedIo, type ListQuery } from '../../store/data.js';
import { DEFAULT_VIEW } from '../../store/views.js';
import { matchesText, parseQuery, textsOf } from '../search/match.js';
import { areaCollection, areaQuery, openHit } from '../search/sources.js';

type Row = Record<string, unknown>;

/** The areas `:all` lists side by side. */
const KINDS = ['instances', 'nodebalancers', 'firewalls', 'issues'];

const ISSUE_COLUMNS: Column<Row>[] = [
  { key: 'entity.label', title: 'Issue', flex: 3 },
  { key: 'id', title: 'ID', width: 8 },
  { key: 'created', title: 'Opened', width: 20 },
  { key: 'services', title: 'Services', flex: 1 },
];

/** One line of the table: an item of an account, or an account's state (loading, failed, empty). */
interface Line {
  account: string;
  row?: Row;
  note?: string;
  failed?: boolean;
}

type AccountResult = { status: 'loading' } | { status: 'ready'; rows: Row[] } | { status: 'error'; error: string };

/** This account's list from its cache (as its own view shows it); another's with a client of its own, dropped after. */
async function loadAccount(target: AccountTarget | undefined, q: ListQuery, current: AppContextValue): Promise<Row[]> {
  if (!target || target.name === current.accounts?.getState().current) {
    return (await current.data.getState().rows(q)) as Row[];
  }
  const client = new ApiClient({ ...(await target.connect()), timeoutMs: 10_000, retryDelaysMs: [300] });
  try {
    return (await uncachedIo(client).read(q)) as Row[];
  } finally {
    client.abort();
  }
}

/**
 * `:all instances` (load balancers, firewalls, managed issues): the items of
 * every saved profile, and the demo while it runs, in one table with an
 * Account column. Each account loads in parallel and fails on its own row;
 * Enter opens the item in its account, switching to it.
 */
export function AllScreen({ entry, width, height }: ScreenProps) {
  const app = useApp();
  const { views, screens, accounts } = app;
  const view = useStore(views, (s) => s.views[entry.key] ?? DEFAULT_VIEW);
  const [kind = '', ...words] = view.filter.trim().split(/\s+/);
  const named = kind ? screens.find(kind) : undefined;
  const def: ScreenDef | undefined = named && KINDS.includes(named.id) ? named : undefined;
  const targets = (accounts?.getState().targets ?? []).filter((t) => t.running());
  const names = accounts ? targets.map((t) => t.name) : ['this account'];
  const [{ results }, store] = useLocalStore(() => ({ results: new Map<string, AccountResult>() }));
  useEffect(() => {
    const q = def && areaQuery(def);
    if (!q) return;
    let live = true;
    store.setState({ results: new Map(names.map((n) => [n, { status: 'loading' } as AccountResult])) });
    const settle = (name: string, r: AccountResult) => live && store.setState((s) => ({ results: new Map(s.results).set(name, r) }));
    for (const name of names) {
      loadAccount(targets.find((t) => t.name === name), q, app).then(
        (rows) => settle(name, { status: 'ready', rows: rows.filter((r) => !flawOf(r)) }),
        (err: unknown) => settle(name, { status: 'error', error: describeError(err) }),
      );
    }
    return () => {
      live = false;
    };
  }, [def?.id, names.join('\u0000')]);

  const q = parseQuery(words.join(' '));
  const lines: Line[] = names.flatMap((account): Line[] => {
    const r = results.get(account) ?? { status: 'loading' };
    if (r.status === 'loading') return [{ account, note: 'loading…' }];
    if (r.status === 'error') return [{ account, note: `could not load: ${r.error}`, failed: true }];
    const texts = textsOf(r.rows);
    const rows = words.length ? r.rows.filter((row, i) => matchesText(texts[i]!, row, q)) : r.rows;
    return rows.length ? rows.map((row) => ({ account, row })) : [{ account, note: words.length ? 'nothing matches' : 'none' }];
  });
  const own = (def?.id === 'issues' ? ISSUE_COLUMNS : ((def?.list?.columns ?? []) as Column<Row>[])).slice(0, 6);
  const columns: Column<Line>[] = [
    { key: 'account', title: 'Account', flex: 1 },
    ...own.map((c, i): Column<Line> => ({
      key: c.key,
      title: c.title,
      width: c.width,
      flex: c.flex,
      align: c.align,
      identifier: c.identifier,
      format: (l) => (l.row ? cellText(c, l.row) : i === 0 ? (l.note ?? '') : ''),
      color: (l) => (l.row ? cellColor(c, l.row) : l.failed ? 'red' : undefined),
    })),
  ];
  const open = (l: Line) => {
    if (!l.row || !def) {
      if (l.failed) app.session.getState().notify(`${l.account}: ${l.note}`, 'error');
      return;
    }
    const hit = { collection: areaCollection(screens, def, [l.row]), row: l.row, exact: false };
    if (!accounts || l.account === accounts.getState().current) openHit(app, hit);
    else void accounts.getState().switchTo(l.account, (next) => openHit(next, hit));
  };
  const loading = names.filter((n) => (results.get(n)?.status ?? 'loading') === 'loading').length;
  const failed = names.filter((n) => results.get(n)?.status === 'error').length;
  const items = lines.filter((l) => l.row).length;
  const status = (
    <Text wrap="truncate-end">
      {!view.filtering && <Text color="cyan">{`all: ${view.filter.trim() || '(/ types a kind: instances, nodebalancers, firewalls, issues)'}  `}</Text>}
      <Text dimColor>{[plural(items, 'item'), `${plural(names.length, 'account')}`, loading ? `loading ${names.length - loading}/${names.length}` : '', failed ? `${failed} failed` : ''].filter(Boolean).join(' · ')}</Text>
    </Text>
  );
  return (
    <SelectTable
      entry={entry}
      title="Every account"
      columns={columns}
      rows={def ? lines : []}
      rowKey={(l) => `${l.account}\u0000${l.row ? String(l.row.id) : ''}`}
      onOpen={open}
      status={status}
      empty={<Text dimColor wrap="wrap">{`:all takes a kind: ${KINDS.join(', ')} (any of their names, e.g. :all vm), then words to filter by.`}</Text>}
      width={width}
      height={height}
      prompt="all: "
    />
  );
}
