import { Box, Text } from 'ink';
import { plain } from '../../app/style.js';
import { TextInput } from '../TextInput.js';
import { fit } from '../cells.js';
import type { Choice } from './types.js';
import type { FormField, Raw } from './form-state.js';

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
}

function choiceText(raw: string, choices: Props['choices']): string {
  if (choices === 'loading') return 'loading choices…';
  if (choices && !Array.isArray(choices)) return `choices failed: ${choices.error}`;
  if (!choices?.length) return raw;
  const i = choices.findIndex((c) => c.value === raw);
  if (i < 0) return raw === '' ? '— choose (Enter) —' : raw;
  return `◂ ${choices[i]!.label ?? choices[i]!.value} ▸ ${i + 1}/${choices.length}`;
}

/** One line of a form: label (required marked), the input, and the field's error beside it. */
export function FormRow({ field, raw, cursor, focused, reveal, choices, error, labelWidth, valueWidth, errorWidth }: Props) {
  // Beside the field its name is implied: "label must be 3..32 characters" shows as "must be 3..32 characters".
  const reason = error?.startsWith(`${field.name} `) ? error.slice(field.name.length + 1) : error;
  const marker = focused ? (plain() ? '>' : '›') : ' ';
  const label = fit(`${field.title}${field.required ? ' *' : ''}`, labelWidth);
  let value;
  if (field.kind === 'bool') value = <Text>{fit(raw ? '[x] yes' : '[ ] no', valueWidth)}</Text>;
  else if (field.kind === 'choice') value = <Text inverse={focused}>{fit(choiceText(String(raw), choices), valueWidth)}</Text>;
  else
    value = (
      <Box width={valueWidth}>
        <TextInput value={{ text: String(raw), cursor }} width={valueWidth} focused={focused} mask={field.secret && !reveal} />
      </Box>
    );
  return (
    <Box height={1} overflow="hidden">
      <Text bold={focused}>{`${marker} ${label} `}</Text>
      {value}
      {reason && <Text color="red" wrap="truncate-end">{` ✗ ${fit(reason, errorWidth).trimEnd()}`}</Text>}
    </Box>
  );
}
