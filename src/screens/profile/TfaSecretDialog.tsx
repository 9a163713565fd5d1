import { renderUnicodeCompact } from 'uqr';
import { PRIORITY } from '../../app/key-router.js';
import type { TfaSecret } from '../../api/profile.js';
import { SecretPane, type PaneLine } from '../../components/SecretPane.js';
import { wrapLine, wrapWords } from '../../components/cells.js';
import { dateTimeText } from '../../components/dates.js';
import { useCopy } from '../../components/use-copy.js';
import { otpauthUri } from './format.js';

interface Props {
  username: string;
  secret: TfaSecret;
  /** The user has added it to an authenticator app: on to the code. */
  onNext: () => void;
  onCancel: () => void;
  width: number;
  height: number;
}

/**
 * The key URI as a QR code of half-block characters (two modules a line), with
 * a quiet zone of two modules, or one when that is what lets it fit the pane
 * whole (80×24: a 16-character secret and a short user name make a version 4
 * code, 37 modules with its zone, 19 lines; the pane has 18 above its hint). Light modules
 * are drawn, as on a phone's screen: a dark terminal shows it the usual way.
 */
export function qrLines(text: string, room: number): string[] {
  const draw = (border: number) => renderUnicodeCompact(text, { ecc: 'L', border }).split('\n');
  const lines = draw(2);
  return lines.length <= room ? lines : draw(1);
}

/** The new two-factor secret, shown once in full like SecretReveal, with the URI authenticator apps import and its QR code; Y copies the secret. */
export function TfaSecretDialog({ username, secret, onNext, onCancel, width, height }: Props) {
  const copy = useCopy();
  const uri = otpauthUri(username, secret.secret);
  const lines: PaneLine[] = [
    ...wrapWords('This is shown only once and will not be shown again. Add it to your authenticator app now: scan the code below, or copy the secret (Y).', width).map((text) => ({ text, color: 'yellow' })),
    { text: '' },
    { text: 'Secret', dim: true },
    { text: secret.secret, bold: true },
    { text: 'Key URI (for apps that take one)', dim: true },
    ...wrapLine(uri, width).map((text) => ({ text, bold: true })),
    { text: '' },
    ...qrLines(uri, height - 1).map((text) => ({ text })),
    { text: '' },
    ...wrapWords(`Confirm with a code from the app before ${dateTimeText(secret.expiry, '—')} UTC; until then two-factor stays off.`, width).map((text) => ({ text })),
  ];
  return (
    <SecretPane
      title={`Two-factor secret for ${username}`}
      lines={lines}
      hint="Y copy  Enter added it, a code next  Esc cancel"
      commands={{ acknowledge: onNext, close: onCancel, copy: () => copy(secret.secret, 'the two-factor secret') }}
      height={height}
      priority={PRIORITY.dialog}
    />
  );
}
