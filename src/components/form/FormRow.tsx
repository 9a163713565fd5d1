import { Box } from 'ink';
import { Text } from '../Text.js';
import { plain } from '../../app/style.js';
import { TextArea } from '../TextArea.js';
import { TextInput } from '../TextInput.js';
import { fit } from '../cells.js';
import type { Choice } from './types.js';
import { listItems, type FormField, type Raw } from './form-state.js';

interface Props {
  field: FormField;
  raw: Raw;
  cursor: number;
  focused: boolean;
  reveal: boolean;
  choices?: Choice[] | 'loading' | { error: string };
  error?: string;
  labelWidth: number;
  valueWidth: number;
  errorWidth: number;
  /** Lines a multi-line field may take here (the form's room); default its own. */
  height?: number;
}

function choiceText(raw: string, choices: Props['choices']): string {
  if (choices === 'loading') return 'loading choices…';
  if (choices && !Array.isArray(choices)) return `choices failed: ${choices.error}`;
  if (!choices?.length) return raw;
  const i = choices.findIndex((c) => c.value === raw);
  if (i < 0) return raw === '' ? '— choose (Enter) —' : raw;
  return `◂ ${choices[i]!.label ?? choices[i]!.value} ▸ ${i + 1}/${choices.length}`;
}

/** Several picked, by their labels; typing (when focused) shows the values themselves. */
function pickedText(raw: string, choices: Props['choices']): string {
  if (choices === 'loading') return 'loading choices…';
  const values = listItems(raw);
  if (values.length === 0) return Array.isArray(choices) && choices.length ? '— none (Enter chooses) —' : '';
  const label = (v: string) => (Array.isArray(choices) ? choices.find((c) => c.value === v)?.label : undefined) ?? v;
  return values.map(label).join(', ');
}

/** One line of a form: label (required marked), the input, and the field's error beside it. */
export function FormRow({ field, raw, cursor, focused, reveal, choices, error, labelWidth, valueWidth, errorWidth, height }: Props) {
  // Beside the field its title is implied: "Label must be 3..32 characters" shows as "must be 3..32 characters" (in full on the form's note line).
  // Only where the title is the subject: "Label taken is already in use" keeps its first word.
  const implied = error?.startsWith(`${field.title} `) && /^(must|is|cannot|may|has|needs|applies)\b/.test(error.slice(field.title.length + 1));
  const reason = implied ? error!.slice(field.title.length + 1) : error;
  const marker = focused ? (plain() ? '>' : '›') : ' ';
  const label = fit(`${field.title}${field.required ? ' *' : ''}`, labelWidth);
  if (field.lines > 1) {
    // The text takes the error's room too; the reason sits under the label (in full on the form's note line).
    const lines = Math.max(1, height ?? field.lines);
    return (
      <Box height={lines} overflowY="hidden">
        <Box flexDirection="column" width={labelWidth + 3}>
          <Text bold={focused}>{`${marker} ${label} `}</Text>
          {reason && lines > 1 && <Text color="red" wrap="truncate-end">{`  ✗ ${reason}`}</Text>}
        </Box>
        <TextArea value={{ text: String(raw), cursor }} width={valueWidth + errorWidth + 3} height={lines} focused={focused} mask={field.secret && !reveal} />
      </Box>
    );
  }
  let value;
  if (field.kind === 'bool') value = <Text>{fit(raw ? '[x] yes' : '[ ] no', valueWidth)}</Text>;
  else if (field.kind === 'choice') value = <Text inverse={focused}>{fit(choiceText(String(raw), choices), valueWidth)}</Text>;
  else if (field.kind === 'multi' && !focused) value = <Text>{fit(pickedText(String(raw), choices), valueWidth)}</Text>;
  else
    value = (
      <Box width={valueWidth}>
        <TextInput value={{ text: String(raw), cursor }} width={valueWidth} focused={focused} mask={field.secret && !reveal} />
      </Box>
    );
  return (
    <Box height={1} overflowY="hidden">
      <Text bold={focused}>{`${marker} ${label} `}</Text>
      {value}
      {reason && <Text color="red" wrap="truncate-end">{` ✗ ${fit(reason, errorWidth).trimEnd()}`}</Text>}
    </Box>
  );
}
