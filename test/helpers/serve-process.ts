import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from 'vitest';

/** The line `serve --ready-json` prints once it answers requests. */
export interface ReadyLine {
  base_url: string;
  beta_url: string;
  token: string;
  restricted_token: string;
  pid: number;
}

export interface ServeProcess {
  child: ChildProcess;
  ready: ReadyLine;
  /** What it wrote to stderr so far. */
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts `serve --ready-json` as its own process (`command` with `args`, the
 * flag added) and resolves once its ready line is out; rejects with its stderr
 * if it exits first.
 */
export function spawnServe(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(command, [...args, '--ready-json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, ready: JSON.parse(line) as ReadyLine, stderr: () => err, exited });
    });
    void exited.then(({ code, signal }) => reject(new Error(`serve exited (${code ?? signal}) before it was ready: ${err}`)));
  });
}

/** Starts `serve` on the demo account (`args` name the data and seed) and checks it answers the instances list with some, then stops it. */
export async function expectServesInstances(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<void> {
  const { child, ready } = await spawnServe(command, args, env);
  try {
    const res = await fetch(`${ready.base_url}/vm/instances`, { headers: { authorization: `Bearer ${ready.token}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { results: number }).results).toBeGreaterThan(0);
  } finally {
    child.kill();
  }
}
