import { Box } from 'ink';
import { Text } from './Text.js';
import { fit } from './cells.js';
import { TextInput } from './TextInput.js';
import { cursorLine, type TextState } from './text-edit.js';
import { windowStart } from './window.js';
import { plural } from '../model/plural.js';

interface Props {
  value: TextState;
  width: number;
  /** Lines shown; the text scrolls to keep the cursor's line in view. */
  height: number;
  focused: boolean;
  mask?: boolean;
}

// Tabs would throw the column count off; they are shown as one space and kept in the value.
const shown = (line: string, mask: boolean | undefined) => (mask ? '•'.repeat(line.length) : line.replace(/\t/g, ' '));

/** A multi-line text field drawn from its state; keys are handled by the owner's layer (see editTextArea). */
export function TextArea({ value, width, height, focused, mask }: Props) {
  const lines = value.text.split('\n');
  const { line, column } = cursorLine(value);
  const at = focused ? line : 0;
  const start = windowStart(0, at, height, lines.length);
  // Unfocused, a long text shows its start and how much more there is.
  const more = !focused && lines.length > height ? lines.length - height + 1 : 0;
  const rows = lines.slice(start, start + height - (more ? 1 : 0));
  return (
    <Box flexDirection="column" width={width} height={height} overflow="hidden">
      {rows.map((text, i) =>
        start + i === at && focused ? (
          <Box key={start + i} width={width} height={1}>
            <TextInput value={{ text: shown(text, mask), cursor: column }} width={width} focused />
          </Box>
        ) : (
          <Text key={start + i} dimColor={!focused} wrap="truncate-end">
            {fit(shown(text, mask), width).trimEnd() || ' '}
          </Text>
        ),
      )}
      {more > 0 && <Text dimColor>{`… ${plural(more, 'more line')}`}</Text>}
    </Box>
  );
}
