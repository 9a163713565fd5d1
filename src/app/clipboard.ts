/**
 * Copies text to the terminal's clipboard with OSC 52, which most terminals
 * (and tmux with set-clipboard) honour, also over SSH. The sequence prints
 * nothing and moves no cursor, so it does not disturb the drawn frame.
 */
export function copyToClipboard(text: string, out: { write(data: string): unknown } = process.stdout): void {
  out.write(`\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`);
}
