import { useRef } from 'react';
import { Text } from './Text.js';
import { PRIORITY } from '../app/key-router.js';
import { useCommands } from '../app/use-commands.js';
import { useLocalStore } from '../app/use-local-store.js';
import { plain } from '../app/style.js';
import { Dialog } from './Dialog.js';
import { fit } from './cells.js';
import { clamp, windowStart } from './window.js';
import { editText, textState } from './text-edit.js';

export interface MenuItem {
  id: string;
  label: string;
  /** Shortcut letter. */
  key?: string;
  /** Shown dimmed after the label, e.g. the scope the token lacks. */
  note?: string;
}

interface Props {
  title: string;
  items: MenuItem[];
  onSelect: (item: MenuItem) => void;
  onClose: () => void;
  width: number;
  /** Most lines the menu may take, borders included. */
  height: number;
  initial?: number;
  priority?: number;
  /** Shown while there is nothing to pick, e.g. while the choices load. */
  empty?: string;
}

/** From this many entries on, typing filters them (a picker of plans, images, instances). */
export const FILTER_FROM = 20;

const matching = (items: MenuItem[], filter: string) => {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  return words.length ? items.filter((it) => words.every((w) => `${it.label} ${it.id}`.toLowerCase().includes(w))) : items;
};

/** A small list to pick from; its state lives in a store so fast keys are never lost. A long one filters as the user types. */
export function Menu({ title, items, onSelect, onClose, width, height, initial = 0, priority = PRIORITY.dialog, empty = 'nothing to choose' }: Props) {
  const filterable = items.length >= FILTER_FROM;
  const [{ index, filter }, store] = useLocalStore(() => ({ index: clamp(initial, 0, items.length - 1), filter: textState() }));
  const shownNow = () => matching(items, store.getState().filter.text);
  const shown = matching(items, filter.text);
  const move = (to: (i: number) => number) => store.setState((s) => ({ index: clamp(to(s.index), 0, shownNow().length - 1) }));
  // Borders and title take three lines, the filter line one; a list longer than the rest scrolls under a line saying where it is.
  const room = Math.max(1, height - 3 - (filterable ? 1 : 0));
  const scrolls = shown.length > room;
  const body = scrolls ? Math.max(1, room - 1) : Math.max(1, shown.length);
  const start = useRef(0);
  start.current = windowStart(start.current, index, body, shown.length);
  useCommands(
    {
      up: () => move((i) => i - 1),
      down: () => move((i) => i + 1),
      pageUp: () => move((i) => i - body),
      pageDown: () => move((i) => i + body),
      top: () => move(() => 0),
      bottom: () => move(() => shownNow().length - 1),
      select: () => {
        const item = shownNow()[store.getState().index];
        if (item) onSelect(item);
      },
      close: onClose,
    },
    {
      priority,
      title,
      modal: 'full',
      // Letters (j and k too) go to the filter; the arrows still move.
      capture: (ev) => {
        if (!filterable || (ev.text === '' && ev.name !== 'backspace' && !ev.name.startsWith('ctrl+'))) return false;
        const next = editText(store.getState().filter, ev);
        if (next) store.setState({ filter: next, index: 0 });
        return next !== null;
      },
      fallback: (ev) => {
        const hit = items.find((it) => it.key && it.key === ev.text);
        if (hit) onSelect(hit);
        return true;
      },
    },
  );
  const inner = width - 4;
  const marker = plain() ? '>' : '›';
  return (
    <Dialog title={title} width={width}>
      {filterable && (
        <Text wrap="truncate-end">
          <Text dimColor>{'type to filter: '}</Text>
          {filter.text}
          <Text dimColor>{`  ${shown.length} of ${items.length}`}</Text>
        </Text>
      )}
      {shown.length === 0 && <Text dimColor>{items.length === 0 ? empty : `nothing matches "${filter.text}"`}</Text>}
      {shown.slice(start.current, start.current + body).map((item, i) => {
        const at = start.current + i;
        const prefix = `${at === index ? marker : ' '} ${item.key ? `${item.key} ` : ''}`;
        const note = item.note ? `  (${item.note})` : '';
        return (
          <Text key={item.id} inverse={at === index} dimColor={Boolean(item.note)} wrap="truncate-end">
            {fit(prefix + item.label + note, inner)}
          </Text>
        );
      })}
      {scrolls && (
        <Text dimColor wrap="truncate-end">
          {`↑↓ ${start.current + 1}-${Math.min(shown.length, start.current + body)} of ${shown.length}${start.current + body < shown.length ? ', more below' : ''}`}
        </Text>
      )}
    </Dialog>
  );
}
