import { Box } from 'ink';
import { Text } from './Text.js';
import { PRIORITY } from '../app/key-router.js';
import { useCommands } from '../app/use-commands.js';
import { useLocalStore } from '../app/use-local-store.js';
import { plain } from '../app/style.js';
import { Dialog } from './Dialog.js';
import { TextInput } from './TextInput.js';
import { editText, textState } from './text-edit.js';
import { wrapWords } from './cells.js';
import { clamp } from './window.js';
import { plural } from '../model/plural.js';

interface Props {
  title: string;
  message: string;
  /** The confirming button's text, e.g. "Delete". */
  confirmLabel: string;
  destructive?: boolean;
  /** Irreversible: this exact text must be typed before confirming. */
  typeToConfirm?: string;
  onConfirm: () => void;
  onCancel: () => void;
  width: number;
  /** Most lines the dialog may take: a longer message scrolls (↑↓), the buttons stay in view. */
  height?: number;
  priority?: number;
}

/**
 * Asks before acting. Cancel is the default button and Enter always does what
 * the focused button says; typing the label of an irreversible action moves
 * the focus to the confirming button, which acts only once the label is typed
 * exactly. ← and → are directions with two buttons at the ends (← always lands
 * on Cancel, however often pressed); only Tab and Shift-Tab cycle.
 */
export function ConfirmDialog({ title, message, confirmLabel, destructive, typeToConfirm, onConfirm, onCancel, width, height = 1000, priority = PRIORITY.dialog }: Props) {
  const [state, store] = useLocalStore(() => ({ focus: 'cancel' as 'cancel' | 'confirm', typed: textState(), hint: '', first: 0 }));
  const matches = (typed: string) => typeToConfirm === undefined || typed === typeToConfirm;
  const lines = wrapWords(message, width - 4);
  // Borders, title, buttons and the hint line; the typed label's prompt and box.
  const room = Math.max(1, height - 6 - (typeToConfirm === undefined ? 0 : 5));
  const scrolls = lines.length > room;
  const shown = scrolls ? room - 1 : lines.length;
  const scroll = (by: number) => store.setState((s) => ({ first: clamp(s.first + by, 0, lines.length - shown) }));
  useCommands(
    {
      up: scrolls && (() => scroll(-1)),
      down: scrolls && (() => scroll(1)),
      towardCancel: () => store.setState({ focus: 'cancel', hint: '' }),
      towardConfirm: () => store.setState({ focus: 'confirm', hint: '' }),
      cycleButtons: () => store.setState((s) => ({ focus: s.focus === 'cancel' ? 'confirm' : 'cancel', hint: '' })),
      press: () => {
        const { focus, typed } = store.getState();
        if (focus === 'cancel') onCancel();
        else if (matches(typed.text)) onConfirm();
        else store.setState({ hint: typed.text === '' ? `Type ${typeToConfirm} first` : `Type ${typeToConfirm} exactly to confirm` });
      },
      close: onCancel,
    },
    {
      priority,
      title: 'Confirm',
      modal: 'full',
      // The label is typed before any command sees the key: j and k are letters here, not scrolling.
      capture: (ev) => {
        if (typeToConfirm === undefined || (ev.text === '' && ev.name !== 'backspace' && !ev.name.startsWith('ctrl+'))) return false;
        const next = editText(store.getState().typed, ev);
        if (next) store.setState({ typed: next, hint: '', focus: 'confirm' });
        return next !== null;
      },
      fallback: () => true,
    },
  );
  const color = destructive ? 'red' : 'yellow';
  const ready = matches(state.typed.text);
  const button = (id: 'cancel' | 'confirm', label: string, enabled = true) => {
    const focused = state.focus === id;
    const text = plain() && focused ? `>[ ${label} ]<` : `[ ${label} ]`;
    return (
      <Text inverse={focused} dimColor={!enabled} color={id === 'confirm' && enabled ? color : undefined}>
        {text}
      </Text>
    );
  };
  return (
    <Dialog title={title} width={width} color={color}>
      {lines.slice(state.first, state.first + shown).map((line, i) => (
        <Text key={i} wrap="truncate-end">
          {line || ' '}
        </Text>
      ))}
      {scrolls && <Text dimColor>{`↑↓ ${state.first + 1}-${state.first + shown} of ${plural(lines.length, 'line')}`}</Text>}
      {typeToConfirm !== undefined && (
        <Box flexDirection="column" marginTop={1}>
          <Text wrap="wrap">
            This cannot be undone. Type <Text bold>{typeToConfirm}</Text> to confirm:
          </Text>
          <Box borderStyle="single" width={Math.min(width - 4, Math.max(typeToConfirm.length + 4, 20))}>
            <TextInput value={state.typed} width={Math.max(8, width - 8)} focused />
          </Box>
        </Box>
      )}
      {state.hint !== '' && <Text color="red">{state.hint}</Text>}
      <Box marginTop={1} gap={2}>
        {button('cancel', 'Cancel')}
        {button('confirm', confirmLabel, ready)}
      </Box>
    </Dialog>
  );
}
