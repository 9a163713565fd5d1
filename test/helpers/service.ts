import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'undici';
import { startService, type RunningService, type ServiceOptions } from '../../src/server/service.js';

export const OWNER_TOKEN = 'test-owner-token-0123456789abcdef';
export const RESTRICTED_TOKEN = 'test-restricted-token-0123456789';

/** A real service on a loopback port with a throwaway SQLite store, instant transitions. */
export async function startTestService(opts: Partial<ServiceOptions> = {}): Promise<RunningService> {
  return startService({ data: ':memory:', seed: 'empty', speed: 'instant', token: OWNER_TOKEN, restrictedToken: RESTRICTED_TOKEN, port: 0, ...opts });
}

/**
 * `vmtui serve` as a process of its own on a data file, from source, so it can
 * share the file with this one or be killed like a real one. The child is
 * pushed to `children` for the caller to end.
 */
export function spawnServe(data: string, token: string, children: ChildProcess[]): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--port', '0', '--data', data, '--seed', 'empty', '--speed', 'instant', '--token', token], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /base root:\s+(\S+)/.exec(out);
      if (m) resolve({ child, base: m[1]! });
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`serve exited early (${code}): ${out}`)));
  });
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  filter?: unknown;
}

/** Real HTTP to the service: `call(svc, 'GET', '/vm/instances')` under the base root, or a full path starting with /v4beta. */
export async function call<T = any>(svc: RunningService, method: string, path: string, opts: CallOptions = {}): Promise<Reply<T>> {
  const url = path.startsWith('/v4') || path.startsWith('/__') ? svc.origin + path : svc.baseUrl + path;
  const headers: Record<string, string> = { ...opts.headers };
  const token = opts.token === undefined ? OWNER_TOKEN : opts.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.filter !== undefined) headers['x-filter'] = JSON.stringify(opts.filter);
  let payload: string | undefined;
  if (opts.raw !== undefined) payload = opts.raw;
  else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
  if (payload !== undefined && !headers['content-type']) headers['content-type'] = 'application/json';
  const res = await request(url, { method: method as 'GET', headers, body: payload });
  const text = await res.body.text();
  let body: any = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // non-JSON bodies (object data) stay text
  }
  return { status: res.statusCode, body, headers: res.headers };
}

/** The fields named in a 400's errors array. */
export const errorFields = (reply: Reply) => ((reply.body?.errors ?? []) as { field?: string }[]).map((e) => e.field);
