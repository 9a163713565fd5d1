import { useRef } from 'react';
import { Text } from 'ink';
import { PRIORITY } from '../app/key-router.js';
import { useCommands } from '../app/use-commands.js';
import { useLocalStore } from '../app/use-local-store.js';
import { plain } from '../app/style.js';
import { Dialog } from './Dialog.js';
import { fit } from './cells.js';
import { clamp, windowStart } from './window.js';

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

/** A small list to pick from; its state lives in a store so fast keys are never lost. */
export function Menu({ title, items, onSelect, onClose, width, height, initial = 0, priority = PRIORITY.dialog, empty = 'nothing to choose' }: Props) {
  const [{ index }, store] = useLocalStore(() => ({ index: clamp(initial, 0, items.length - 1) }));
  const move = (to: (i: number) => number) => store.setState((s) => ({ index: clamp(to(s.index), 0, items.length - 1) }));
  const body = Math.max(1, Math.min(items.length, height - 3));
  const start = useRef(0);
  start.current = windowStart(start.current, index, body, items.length);
  useCommands(
    {
      up: () => move((i) => i - 1),
      down: () => move((i) => i + 1),
      pageUp: () => move((i) => i - body),
      pageDown: () => move((i) => i + body),
      top: () => move(() => 0),
      bottom: () => move(() => items.length - 1),
      select: () => items.length > 0 && onSelect(items[store.getState().index]!),
      close: onClose,
    },
    {
      priority,
      title,
      modal: 'full',
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
      {items.length === 0 && <Text dimColor>{empty}</Text>}
      {items.slice(start.current, start.current + body).map((item, i) => {
        const at = start.current + i;
        const prefix = `${at === index ? marker : ' '} ${item.key ? `${item.key} ` : ''}`;
        const note = item.note ? `  (${item.note})` : '';
        return (
          <Text key={item.id} inverse={at === index} dimColor={Boolean(item.note)} wrap="truncate-end">
            {fit(prefix + item.label + note, inner)}
          </Text>
        );
      })}
    </Dialog>
  );
}
