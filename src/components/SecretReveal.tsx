import { Text } from 'ink';
import { PRIORITY } from '../app/key-router.js';
import { useCommands } from '../app/use-commands.js';
import { Dialog } from './Dialog.js';

interface Props {
  title: string;
  value: string;
  note?: string;
  onDone: () => void;
  width: number;
}

/** A secret the API returns once (a new token, key secret, two-factor secret), shown in full until acknowledged. */
export function SecretReveal({ title, value, note, onDone, width }: Props) {
  useCommands({ acknowledge: onDone }, { priority: PRIORITY.nested, title, modal: 'full' });
  return (
    <Dialog title={title} width={width} color="yellow">
      <Text color="yellow" wrap="wrap">
        This is shown only once and will not be shown again. Copy it now.
      </Text>
      {note && <Text wrap="wrap">{note}</Text>}
      <Text> </Text>
      <Text bold wrap="wrap">
        {value}
      </Text>
      <Text> </Text>
      <Text dimColor>Press Enter once you have copied it.</Text>
    </Dialog>
  );
}
