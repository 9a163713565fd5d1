import { readFileSync } from 'node:fs';
import { spawn, type IPty } from '@lydell/node-pty';
import { startStubApi, type StubApi } from './stub-api.js';

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

export interface OnStub {
  proc: IPty;
  api: StubApi;
  /** Quits the app (q), then stops the stub unless it was given. */
  close(): Promise<void>;
}

/**
 * The one opener of the instance list on the stub API, as the benchmarks
 * time it: a stub of `rows` synthetic instances (or `api`, shared), the built
 * app on it (`entry`, dist/vmtui.js by default, after `nodeArgs`) with
 * refreshes an hour apart, its list loaded and settled for 300 ms.
 */
export async function openOnStub(rows: number, opts: { api?: StubApi; entry?: string; nodeArgs?: string[]; suffix?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<OnStub> {
  const api = opts.api ?? (await startStubApi(rows, opts.suffix));
  const proc = await openInstancesList([...(opts.nodeArgs ?? []), opts.entry ?? 'dist/vmtui.js', '--api-url', api.baseUrl, '--token', 'bench-token', '--refresh', '3600'], rows, { timeoutMs: opts.timeoutMs ?? 300_000, env: opts.env });
  await sleep(300);
  return {
    proc,
    api,
    close: async () => {
      proc.write('q');
      await sleep(200);
      proc.kill();
      if (!opts.api) await api.close();
    },
  };
}
