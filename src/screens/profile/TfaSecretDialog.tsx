import { Box, Text } from 'ink';
import type { TfaSecret } from '../../api/profile.js';
import { PRIORITY } from '../../app/key-router.js';
import { useCommands } from '../../app/use-commands.js';
import { Dialog } from '../../components/Dialog.js';
import { otpauthUri } from './format.js';
import { dateTimeText } from '../../components/dates.js';

interface Props {
  username: string;
  secret: TfaSecret;
  /** The user has added it to an authenticator app: on to the code. */
  onNext: () => void;
  onCancel: () => void;
  width: number;
}

/** The new two-factor secret, shown once in full like SecretReveal, with the URI authenticator apps import. */
export function TfaSecretDialog({ username, secret, onNext, onCancel, width }: Props) {
  useCommands({ acknowledge: onNext, close: onCancel }, { priority: PRIORITY.dialog, title: 'Two-factor secret', modal: 'full' });
  return (
    <Dialog title={`Two-factor secret for ${username}`} width={width} color="yellow">
      <Text color="yellow" wrap="wrap">
        This is shown only once and will not be shown again. Add it to your authenticator app now.
      </Text>
      <Text> </Text>
      <Box>
        <Text dimColor>{'Secret  '}</Text>
        <Text bold>{secret.secret}</Text>
      </Box>
      <Text dimColor>Key URI (for apps that take one, or to make a QR code):</Text>
      <Text bold wrap="wrap">
        {otpauthUri(username, secret.secret)}
      </Text>
      <Text> </Text>
      <Text wrap="wrap">{`Confirm with a code from the app before ${dateTimeText(secret.expiry, '—')} UTC; until then two-factor stays off.`}</Text>
      <Text dimColor>Enter: added it, type a code next · Esc: cancel</Text>
    </Dialog>
  );
}
