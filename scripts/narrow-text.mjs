// Which characters string-width measures as one column, for the bundle's fast
// path (see scripts/build.mjs): computed from the installed string-width.
import stringWidth from 'string-width';

/** Blocks the UI draws from: Latin, punctuation, arrows, technical and math signs, control pictures (the gate's forms of C0 controls), box drawing, shapes, dingbats, braille. */
const BLOCKS = [
  [0xa0, 0x2ff],
  [0x2010, 0x205e],
  [0x2190, 0x2426],
  [0x2460, 0x24ff],
  [0x2500, 0x27bf],
  [0x2800, 0x28ff],
];

const hex = (c) => `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;

/** The characters of those blocks that string-width measures one column wide, as the ranges of a regex character class. */
export function narrowClass() {
  const ranges = [];
  for (const [from, to] of BLOCKS) {
    let start;
    for (let c = from; c <= to + 1; c++) {
      const narrow = c <= to && stringWidth(String.fromCodePoint(c)) === 1;
      if (narrow && start === undefined) start = c;
      if (!narrow && start !== undefined) {
        ranges.push(start === c - 1 ? hex(start) : `${hex(start)}-${hex(c - 1)}`);
        start = undefined;
      }
    }
  }
  return ranges.join('');
}
