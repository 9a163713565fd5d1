import { useRef } from 'react';
import { Box, Text } from 'ink';
import { describeError } from '../../api/errors.js';
import { PRIORITY } from '../../app/key-router.js';
import { useCommands } from '../../app/use-commands.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { TextInput } from '../../components/TextInput.js';
import { fit } from '../../components/cells.js';
import { windowStart } from '../../components/window.js';
import { areaState, areaText, editArea, type AreaState } from './text-area.js';

/** What the text means: the parsed value, or why it cannot be saved. */
export type JsonCheck = { value: unknown; error?: undefined } | { value?: undefined; error: string };

interface Props {
  title: string;
  initial: string;
  /** Checked on every keystroke; an error blocks saving. */
  check: (text: string) => JsonCheck;
  /** Saves the value; a throw keeps the editor open with the reason. */
  onSave: (value: unknown) => Promise<void>;
  onCancel: () => void;
  width: number;
  height: number;
}

interface State {
  area: AreaState;
  /** The service's complaint about the last save, until the next edit. */
  serverError: string | null;
  saving: boolean;
  confirmDiscard: boolean;
}

/** A multi-line JSON editor: Enter breaks lines, the text is checked as you type, Ctrl-S saves, Esc cancels. */
export function JsonEditor({ title, initial, check, onSave, onCancel, width, height }: Props) {
  const [state, store] = useLocalStore<State>(() => ({ area: areaState(initial), serverError: null, saving: false, confirmDiscard: false }));
  // Title, hint and status lines take three.
  const body = Math.max(1, height - 3);

  const save = async () => {
    const s = store.getState();
    if (s.saving) return;
    const checked = check(areaText(s.area));
    if (checked.error !== undefined) return;
    store.setState({ saving: true, serverError: null });
    try {
      await onSave(checked.value);
    } catch (err) {
      store.setState({ serverError: describeError(err) });
    } finally {
      store.setState({ saving: false });
    }
  };
  const cancel = () => {
    if (areaText(store.getState().area) !== initial) store.setState({ confirmDiscard: true });
    else onCancel();
  };
  useCommands(
    { submit: () => void save(), cancel },
    {
      priority: PRIORITY.dialog,
      title,
      modal: 'full',
      capture: (ev) => {
        const next = editArea(store.getState().area, ev, body);
        if (!next) return false;
        store.setState({ area: next, serverError: null });
        return true;
      },
    },
  );

  const start = useRef(0);
  if (state.confirmDiscard) {
    return (
      <ConfirmDialog
        title="Discard changes?"
        message={`You have edits in "${title}". Discard them?`}
        confirmLabel="Discard"
        onConfirm={onCancel}
        onCancel={() => store.setState({ confirmDiscard: false })}
        width={Math.min(width, 60)}
        priority={PRIORITY.nested}
      />
    );
  }

  const { area } = state;
  const checked = check(areaText(area));
  const error = state.serverError ?? checked.error;
  start.current = windowStart(start.current, area.row, body, area.lines.length);
  const gutter = String(area.lines.length).length + 1;
  const textWidth = Math.max(8, width - gutter - 1);
  const where = `line ${area.row + 1}, column ${area.col + 1} of ${area.lines.length} lines · `;
  const status = state.saving ? 'Saving…' : error ? `✗ ${error}` : 'valid';
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      <Text dimColor wrap="truncate-end">
        Enter new line · Tab indents · Ctrl-S saves · Esc cancels
      </Text>
      <Box flexDirection="column" height={body} overflow="hidden">
        {area.lines.slice(start.current, start.current + body).map((line, i) => {
          const at = start.current + i;
          return (
            <Box key={at} height={1} overflow="hidden">
              <Text dimColor>{`${String(at + 1).padStart(gutter - 1)} `}</Text>
              {at === area.row ? (
                <Box width={textWidth}>
                  <TextInput value={{ text: line, cursor: area.col }} width={textWidth} focused />
                </Box>
              ) : (
                <Text wrap="truncate-end">{fit(line, textWidth).trimEnd()}</Text>
              )}
            </Box>
          );
        })}
      </Box>
      <Text wrap="truncate-end">
        <Text dimColor>{where}</Text>
        <Text color={error ? 'red' : 'green'}>{status}</Text>
      </Text>
    </Box>
  );
}
