import { Box, Text } from 'ink';
import { PRIORITY } from '../app/key-router.js';
import { useCommands } from '../app/use-commands.js';
import { useLocalStore } from '../app/use-local-store.js';
import { plain } from '../app/style.js';
import { Dialog } from './Dialog.js';
import { TextInput } from './TextInput.js';
import { editText, textState } from './text-edit.js';

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
  priority?: number;
}

/**
 * Asks before acting. Cancel is the default button and Enter always does what
 * the focused button says; typing the label of an irreversible action moves
 * the focus to the confirming button (←, → and Tab move it back), which acts
 * only once the label is typed exactly.
 */
export function ConfirmDialog({ title, message, confirmLabel, destructive, typeToConfirm, onConfirm, onCancel, width, priority = PRIORITY.dialog }: Props) {
  const [state, store] = useLocalStore(() => ({ focus: 'cancel' as 'cancel' | 'confirm', typed: textState(), hint: '' }));
  const matches = (typed: string) => typeToConfirm === undefined || typed === typeToConfirm;
  useCommands(
    {
      switchButton: () => store.setState((s) => ({ focus: s.focus === 'cancel' ? 'confirm' : 'cancel', hint: '' })),
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
      fallback: (ev) => {
        if (typeToConfirm === undefined) return true;
        const next = editText(store.getState().typed, ev);
        if (next) store.setState({ typed: next, hint: '', focus: 'confirm' });
        return true;
      },
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
      <Text wrap="wrap">{message}</Text>
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
