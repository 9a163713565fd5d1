import { useEffect, useReducer } from 'react';
import { Text } from '../../components/Text.js';
import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import { drillTo } from '../../app/drill.js';
import type { Column, ScreenProps } from '../../app/screen.js';
import { SelectTable } from '../../components/SelectTable.js';
import { Spinner } from '../../components/Spinner.js';
import type { NavEntry } from '../../store/nav.js';
import { DEFAULT_VIEW } from '../../store/views.js';
import { xrayRoot, type XNode, type XrayEnv } from './tree.js';

/** A line of the tree as drawn: its node, where it sits, and whether its branch is open. */
interface Line {
  path: string;
  depth: number;
  node: XNode;
  /** Open branch: its children, or still being read. */
  open?: XNode[] | 'reading' | { error: string };
}

/** One xray's tree: its root, the branches read, and those open. Kept with the nav entry, so Esc back from a drill finds it as it was. */
interface Tree {
  root?: XNode;
  read: Map<string, XNode[] | 'reading' | { error: string }>;
  open: Set<string>;
}

const trees = new WeakMap<NavEntry, Tree>();

const MARK = { closed: '▸', open: '▾', leaf: '·', note: ' ' };

function lines(tree: Tree): Line[] {
  const out: Line[] = [];
  const walk = (node: XNode, path: string, depth: number) => {
    const open = tree.open.has(path) ? tree.read.get(path) : undefined;
    out.push({ path, depth, node, open });
    if (Array.isArray(open)) for (const child of open) walk(child, `${path}/${child.key}`, depth + 1);
  };
  if (tree.root) walk(tree.root, tree.root.key, 0);
  return out;
}

const marker = (l: Line) => (l.node.note ? MARK.note : !l.node.children ? MARK.leaf : l.open ? MARK.open : MARK.closed);

const columns: Column<Line>[] = [
  {
    key: 'item',
    title: 'Item',
    flex: 3,
    format: (l) => `${'  '.repeat(l.depth)}${marker(l)} ${l.node.kind}: ${l.node.label}${l.open === 'reading' ? ' … reading' : ''}${l.open && typeof l.open === 'object' && !Array.isArray(l.open) ? ` (cannot read: ${l.open.error})` : ''}`,
    color: (l) => (l.node.note ? 'gray' : undefined),
  },
  { key: 'state', title: 'State', width: 12, format: (l) => l.node.state, color: (l) => l.node.color },
];

/** `x` on an item: what it touches, both ways, as a tree opened in place; Enter goes to a line's item as by hand. */
export function XrayScreen({ entry, width, height }: ScreenProps) {
  const { data, client, screens, nav, views, session } = useApp();
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  let tree = trees.get(entry);
  if (!tree) trees.set(entry, (tree = { read: new Map(), open: new Set() }));
  const env: XrayEnv = { read: (q) => data.getState().rows(q), data, client, screens };

  const openBranch = (path: string, node: XNode) => {
    const t = trees.get(entry)!;
    t.open.add(path);
    const known = t.read.get(path);
    if (known === undefined || (typeof known === 'object' && !Array.isArray(known))) {
      t.read.set(path, 'reading');
      node.children!().then(
        (kids) => t.read.set(path, kids),
        (err: unknown) => t.read.set(path, { error: (err as Error).message }),
      ).finally(redraw);
    }
    redraw();
  };

  useEffect(() => {
    const t = trees.get(entry)!;
    if (t.root) return;
    void xrayRoot(env, entry.params).then((root) => {
      t.root = root;
      if (root.children) openBranch(root.key, root);
      else redraw();
    });
  }, [entry]);

  const filter = useStore(views, (s) => (s.views[entry.key] ?? DEFAULT_VIEW).filter).toLowerCase();
  const all = lines(tree);
  const shown = filter ? all.filter((l) => `${l.node.kind} ${l.node.label} ${l.node.state}`.toLowerCase().includes(filter)) : all;
  const selected = () => {
    const v = views.getState().get(entry.key);
    return shown.find((l) => l.path === v.selectedKey) ?? shown[Math.min(v.selectedIndex, shown.length - 1)];
  };
  const say = session.getState().notify;

  if (!tree.root) return <Spinner label="reading what it touches…" />;
  return (
    <SelectTable
      entry={entry}
      title="Xray"
      columns={columns}
      rows={shown}
      rowKey={(l) => l.path}
      onOpen={(l) => {
        if (l.node.to) drillTo(nav, views, l.node.to, l.node.to.crumb || l.node.label);
        else if (l.node.children) (l.open ? (trees.get(entry)!.open.delete(l.path), redraw()) : openBranch(l.path, l.node));
        else say(l.node.note ? l.node.label : `${l.node.kind} ${l.node.label}: nothing to open`, 'error');
      }}
      commands={{
        expand: () => {
          const l = selected();
          if (l?.node.children && !l.open) openBranch(l.path, l.node);
        },
        collapse: () => {
          const l = selected();
          if (!l) return;
          if (l.open) {
            trees.get(entry)!.open.delete(l.path);
            redraw();
            return;
          }
          const parent = l.path.slice(0, l.path.lastIndexOf('/'));
          if (parent) views.getState().update(entry.key, { selectedKey: parent });
        },
      }}
      status={<Text dimColor wrap="truncate-end">{`What ${tree.root.label} touches · → opens a branch, ← closes it · Enter goes there`}</Text>}
      empty={<Text dimColor>Nothing matches the filter: Esc clears it.</Text>}
      width={width}
      height={height}
    />
  );
}
