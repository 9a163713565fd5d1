type Out = { write(data: string): unknown };

/** How the terminal is told of an alert; each switchable in config.json's `alerts`. */
export interface AlertSignals {
  bell: boolean;
  /** OSC 9: iTerm2, Windows Terminal, kitty, WezTerm, ConEmu, foot. */
  osc9: boolean;
  /** OSC 777 notify: urxvt, foot, Ghostty, VTE terminals (GNOME Terminal, Tilix). */
  osc777: boolean;
}

export const DEFAULT_SIGNALS: AlertSignals = { bell: true, osc9: true, osc777: false };

/** Text from the server inside an escape sequence: a control character in a label would end it early and write to the screen. */
const plain = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ');

/** tmux drops an application's OSC unless wrapped in its passthrough DCS, each ESC doubled; it then needs `allow-passthrough on`. */
const passthrough = (seq: string) => `\x1bPtmux;${seq.replaceAll('\x1b', '\x1b\x1b')}\x1b\\`;

/**
 * Tells the terminal of an alert: a bell, and a desktop notification by OSC 9
 * or OSC 777 where the terminal shows one (the sequences cross SSH as they
 * are; inside tmux they are passed through). Nothing here prints or moves the
 * cursor, so the frame on screen stays as drawn.
 */
export function tellTerminal(text: string, signals: AlertSignals, out: Out = process.stdout, env: NodeJS.ProcessEnv = process.env): void {
  const body = plain(text);
  const wrap = env.TMUX ? passthrough : (seq: string) => seq;
  let seqs = '';
  if (signals.osc9) seqs += wrap(`\x1b]9;${body}\x07`);
  if (signals.osc777) seqs += wrap(`\x1b]777;notify;vmtui;${body}\x07`);
  // The bell goes as is: tmux hands it on by its own bell-action.
  if (signals.bell) seqs += '\x07';
  if (seqs) out.write(seqs);
}
