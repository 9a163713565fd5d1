import { readFileSync } from 'node:fs';
import { spawn, type IPty } from '@lydell/node-pty';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU time the process has used (user + system), in ms: less at the mercy of other load on the machine than wall time. */
export const cpuMs = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};

/**
 * The built app (`args`: its entry and flags) in a 120×40 pseudo-terminal,
 * Ink drawing (CI=false), with the instances list opened by `:vm` and all of
 * its `rows` loaded.
 */
export async function openInstancesList(args: string[], rows: number, opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<IPty> {
  const proc = spawn(process.execPath, args, {
    cols: 120,
    rows: 40,
    env: { ...(process.env as Record<string, string>), CI: 'false', TERM: 'xterm-256color', ...opts.env },
  });
  let out = '';
  const reading = proc.onData((d) => (out = (out + d).slice(-20_000)));
  const waitFor = async (re: RegExp) => {
    const end = Date.now() + (opts.timeoutMs ?? 120_000);
    while (!re.test(out)) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${re}`);
      await sleep(20);
    }
  };
  await waitFor(/\? help/);
  proc.write(':vm');
  await sleep(200);
  proc.write('\r');
  await waitFor(new RegExp(`${rows} items?(?! ·)`));
  reading.dispose();
  return proc;
}
