import { spawn } from 'node:child_process';

type Out = { write(data: string): unknown };

const osc52 = (text: string) => `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;

/** Gives `text` to `tmux load-buffer -w -`; resolves false when tmux is not there or refuses. */
function tmuxLoadBuffer(text: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('tmux', ['load-buffer', '-w', '-'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
    child.stdin.on('error', () => {});
    child.stdin.end(text);
  });
}

/**
 * Copies text to the terminal's clipboard with OSC 52, which most terminals
 * honour, also over SSH. The sequence prints nothing and moves no cursor, so
 * it does not disturb the drawn frame. Inside tmux (TMUX set) an application's
 * OSC 52 is dropped by tmux's default `set-clipboard external` (tmux 3.3,
 * measured), so the text goes to `tmux load-buffer -w`, which puts it in
 * tmux's paste buffer and sends it on to the outer terminal's clipboard;
 * should tmux refuse, the sequence is written as is (tmux passes it on
 * under `set -g set-clipboard on`). Resolves with how it was copied, for the
 * message line.
 */
export async function copyToClipboard(text: string, out: Out = process.stdout, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (!env.TMUX) {
    out.write(osc52(text));
    return 'OSC 52';
  }
  if (await tmuxLoadBuffer(text, env)) return 'tmux buffer and OSC 52';
  out.write(osc52(text));
  return 'OSC 52; in tmux it needs set -g set-clipboard on';
}
