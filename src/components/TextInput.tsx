import { Text } from './Text.js';
import { plain } from '../app/style.js';
import type { TextState } from './text-edit.js';

interface Props {
  value: TextState;
  width: number;
  focused: boolean;
  mask?: boolean;
  placeholder?: string;
}

/** A single-line text field drawn from its state; keys are handled by the owner's layer. */
export function TextInput({ value, width, focused, mask, placeholder }: Props) {
  const shown = mask ? '•'.repeat(value.text.length) : value.text;
  if (!focused) {
    const text = shown || placeholder || '';
    return (
      <Text dimColor={!shown} wrap="truncate-end">
        {text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text}
      </Text>
    );
  }
  // Scroll horizontally so the cursor stays in view.
  const room = Math.max(1, width - 1);
  const start = Math.max(0, value.cursor - room + 1);
  const before = shown.slice(start, value.cursor);
  const at = shown[value.cursor] ?? ' ';
  const after = shown.slice(value.cursor + 1, start + room);
  if (plain()) return <Text wrap="truncate-end">{`${before}▏${shown.slice(value.cursor, start + room)}`}</Text>;
  return (
    <Text wrap="truncate-end">
      {before}
      <Text inverse>{at}</Text>
      {after}
    </Text>
  );
}
