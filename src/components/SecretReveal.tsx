import { SecretPane } from './SecretPane.js';
import { wrapLine, wrapWords } from './cells.js';
import { useCopy } from './use-copy.js';

interface Props {
  title: string;
  value: string;
  note?: string;
  onDone: () => void;
  width: number;
  height: number;
}

/** A secret the API returns once (a new token, key secret, pre-signed URL, scratch code), shown in full until acknowledged; Y copies it. */
export function SecretReveal({ title, value, note, onDone, width, height }: Props) {
  const copy = useCopy();
  const lines = [
    { text: 'This is shown only once and will not be shown again. Copy it now (Y).', color: 'yellow' },
    ...(note ? wrapWords(note, width).map((text) => ({ text })) : []),
    { text: '' },
    // The value alone on its lines, cut at the screen's width: selected with the mouse, it is the value.
    ...value.split('\n').flatMap((l) => wrapLine(l, width)).map((text) => ({ text, bold: true })),
  ];
  return (
    <SecretPane
      title={title}
      lines={lines}
      hint="Y copy  Enter I have copied it"
      commands={{ acknowledge: onDone, copy: () => copy(value, `"${title}"`) }}
      height={height}
    />
  );
}
