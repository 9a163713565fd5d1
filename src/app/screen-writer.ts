/**
 * The stdout Ink draws on: each frame Ink writes (the whole of it, after
 * erasing the previous one) reaches the terminal as the lines that changed
 * since the frame on screen, each put at its row, so moving the selection
 * sends two lines, not forty, and a frame that changed nothing sends nothing.
 *
 * A list that scrolled is a band of rows whose lines moved: the band is
 * scrolled in the terminal (src/app/line-shift.ts), then the lines still
 * wrong are drawn, so a scrolled step sends the row that came into view and
 * the selection's, not the whole band.
 *
 * Ink's own `incrementalRendering` (6.8) would do this, but it moves the
 * cursor up one line too few for a frame that ends with a newline (any frame
 * shorter than the screen, as ours is): every frame after the first lands one
 * row lower. The frame on screen here is known row by row, and each changed
 * line is placed absolutely, so no relative move can drift; the app owns the
 * alternate screen, frame at its top, autowrap off (src/app/terminal.ts).
 */

import { cheapestShift, shifted, type Shift } from './line-shift.js';

// What Ink's log writes before a frame: ansi-escapes' eraseLines(n) for the previous one, or clearTerminal.
const ERASE_LINES = /^(?:\x1b\[2K\x1b\[1A)*\x1b\[2K\x1b\[G/;
const CLEAR_TERMINAL = '\x1b[2J\x1b[3J\x1b[H';
// Writes of escape sequences alone (cursor shown or hidden, synchronized output, OSC 52 copies) are not frames.
const CONTROLS_ONLY = /^(?:\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\))*$/;
const CLEAR_SCREEN = '\x1b[H\x1b[2J';
const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
// How long after a SIGWINCH a frame of Ink's may come before the writer redraws the last one itself.
const REPAINT_MS = 50;
const ERASE_LINE = '\x1b[K';

/**
 * Moves the lines of the shift's region, as a VT100 does (DECSTBM, then IND
 * at its bottom or RI at its top, once per row: what xterm, tmux, screen and
 * the Linux console all know), and gives the whole screen back as the
 * region. The cursor is hidden and every line is then placed absolutely, so
 * where the region leaves it does not matter.
 */
function scroll({ top, bottom, by }: Shift): string {
  const moves = by > 0 ? `\x1b[${bottom + 1}H${'\x1bD'.repeat(by)}` : `\x1b[${top + 1}H${'\x1bM'.repeat(-by)}`;
  return `\x1b[${top + 1};${bottom + 1}r${moves}\x1b[r`;
}

// An SGR sequence (its parameters captured), any other escape sequence, or a run of spaces worth skipping.
const LINE_PARTS = /\x1b\[([0-9;:]*)m|\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\))| {5,}/g;

// Not an SGR code: an open hyperlink.
const HYPERLINK = -1;
// The SGR code that ends each attribute a space shows: inverse, underline, line through, overline.
const ENDS = new Map([
  [27, 7],
  [24, 4],
  [29, 9],
  [55, 53],
]);

/** Whether a space drawn after these SGR parameters (following `shows`) shows anything: inverse, a background, a line through or under it. */
function spacesShow(params: string, shows: Set<number>): void {
  const codes = params.split(';').map((c) => Number(c.split(':')[0] || 0));
  for (let i = 0; i < codes.length; i++) {
    const code = codes[i]!;
    if (code === 0) shows.clear();
    else if (code === 7 || code === 4 || code === 21 || code === 9 || code === 53) shows.add(code === 21 ? 4 : code);
    else if (ENDS.has(code)) shows.delete(ENDS.get(code)!);
    else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) shows.add(48);
    else if (code === 49) shows.delete(48);
    if (code === 48) shows.add(48);
    // An extended color's own parameters: 5;n or 2;r;g;b.
    if (code === 38 || code === 48 || code === 58) i += codes[i + 1] === 5 ? 2 : 4;
  }
}

/**
 * The line as written on a row just erased: runs of blank cells are stepped
 * over (cursor forward) instead of drawn, where a space would show nothing;
 * a table row is mostly such runs between its columns.
 */
export function compactLine(line: string): string {
  const shows = new Set<number>();
  return line.replace(LINE_PARTS, (part, sgr: string | undefined) => {
    if (sgr !== undefined) spacesShow(sgr, shows);
    else if (part.charCodeAt(0) === 32 && shows.size === 0) return `\x1b[${part.length}C`;
    // A space inside a hyperlink (OSC 8) is part of what can be clicked.
    else if (part.startsWith('\x1b]8;')) {
      if (/^\x1b\]8;[^;]*;[^\x07\x1b]/.test(part)) shows.add(HYPERLINK);
      else shows.delete(HYPERLINK);
    }
    return part;
  });
}

type WriteArgs = [chunk: unknown, encodingOrCallback?: unknown, callback?: unknown];

export interface ScreenWriter {
  /** The stream to give Ink as its stdout: process.stdout in all but write. */
  stdout: NodeJS.WriteStream;
  /** The next frame is drawn whole on a cleared screen (the terminal changed what it shows: resized, or written to by another). */
  invalidate(): void;
  /** Stops listening for SIGWINCH; nothing is drawn after. */
  dispose(): void;
}

export interface ScreenWriterOptions {
  /** Scroll the terminal where lines moved (default); off, every moved line is drawn again (for the bytes bench's same-run comparison). */
  shifts?: boolean;
}

export function createScreenWriter(stdout: NodeJS.WriteStream, { shifts = true }: ScreenWriterOptions = {}): ScreenWriter {
  // The lines on screen, top row first; rows past the end are blank. Undefined: unknown, clear and draw all.
  let screen: string[] | undefined;
  let lastFrame: string | undefined;
  let repaint: NodeJS.Timeout | undefined;

  /** The escape sequences and lines that turn what is on screen into `frame`. */
  const update = (frame: string) => {
    const lines = frame.endsWith('\n') ? frame.slice(0, -1).split('\n') : frame.split('\n');
    const rows = stdout.rows || lines.length;
    let out = '';
    if (!screen) {
      out = CLEAR_SCREEN;
      screen = [];
    }
    const height = Math.min(rows, Math.max(lines.length, screen.length));
    // Erased before it is written: a line as wide as the screen leaves the cursor on its last column, which an erase after it would take.
    const drawn: string[] = [];
    const draw = (row: number) => (drawn[row] ??= `\x1b[${row + 1}H${ERASE_LINE}${compactLine(lines[row] ?? '')}`);
    const shift = shifts ? cheapestShift(screen, lines, height, (row) => Buffer.byteLength(draw(row)), (s) => scroll(s).length) : undefined;
    if (shift) {
      out += scroll(shift);
      screen = shifted(screen, height, shift);
    }
    for (let row = 0; row < height; row++) if ((lines[row] ?? '') !== (screen[row] ?? '')) out += draw(row);
    screen = lines.slice(0, rows);
    return out;
  };

  const write = (...args: WriteArgs): boolean => {
    const [chunk] = args;
    const passThrough = () => stdout.write(...(args as Parameters<typeof stdout.write>));
    if (typeof chunk !== 'string') return passThrough();
    let frame = chunk;
    if (frame.startsWith(CLEAR_TERMINAL)) {
      screen = undefined;
      frame = frame.slice(CLEAR_TERMINAL.length);
    } else {
      const erase = ERASE_LINES.exec(frame);
      if (erase) frame = frame.slice(erase[0].length);
      // Ink erasing its frame with nothing after it: a frame follows, on a screen that may have changed since.
      if (erase && frame === '') {
        screen = undefined;
        return true;
      }
      if (!erase && CONTROLS_ONLY.test(frame)) return passThrough();
    }
    const [, encodingOrCallback, callback] = args;
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    lastFrame = frame;
    return stdout.write(update(frame), done as (() => void) | undefined);
  };

  const proxy = new Proxy(stdout, {
    get(target, key) {
      if (key === 'write') return write;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  // Node emits 'resize' only when the size it reads is new: a terminal shrunk and grown back before the app
  // looked says nothing, yet may have moved what it shows. Each SIGWINCH has the frame drawn whole, by Ink
  // when the size changed, else here.
  const onWinch = () => {
    screen = undefined;
    clearTimeout(repaint);
    repaint = setTimeout(() => {
      if (!screen && lastFrame !== undefined) stdout.write(SYNC_START + update(lastFrame) + SYNC_END);
    }, REPAINT_MS).unref();
  };
  process.on('SIGWINCH', onWinch);
  return {
    stdout: proxy,
    invalidate: () => {
      screen = undefined;
    },
    dispose: () => {
      process.off('SIGWINCH', onWinch);
      clearTimeout(repaint);
    },
  };
}
