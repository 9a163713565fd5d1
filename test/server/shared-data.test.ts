import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/server/sqlite.js';
import { request } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/service.js';
import { call, OWNER_TOKEN, spawnServe } from '../helpers/service.js';

/** Two services on one data file, as when vmtui runs on the demo account in two terminals. */
const dir = mkdtempSync(join(tmpdir(), 'vmtui-shared-'));
const data = join(dir, 'service.sqlite');
const running: RunningService[] = [];
const children: ChildProcess[] = [];
const start = async () => {
  const svc = await startService({ data, seed: 'empty', speed: 'instant', port: 0 });
  running.push(svc);
  return svc;
};
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const svc of running) await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

const labels = async (svc: RunningService, token: string) => ((await call(svc, 'GET', '/vm/instances', { token })).body.data as { label: string }[]).map((vm) => vm.label);

describe('services sharing a data file', () => {
  it('keep each other’s generated tokens and never serve a page the other has changed', async () => {
    const a = await start();
    const b = await start();
    expect((await call(a, 'GET', '/profile', { token: b.token })).status).toBe(200);
    expect((await call(b, 'GET', '/profile', { token: a.token })).status).toBe(200);

    const made = await call(b, 'POST', '/vm/instances', { token: b.token, body: { region: 'us-east', type: 'g6-nanode-1', label: 'made-by-b' } });
    expect(made.status).toBe(200);
    expect(await labels(a, a.token)).toEqual(['made-by-b']);
    // a has this page cached now; b's rename must show through it.
    expect(await labels(a, a.token)).toEqual(['made-by-b']);
    expect((await call(b, 'PUT', `/vm/instances/${made.body.id}`, { token: b.token, body: { label: 'renamed-by-b' } })).status).toBe(200);
    expect(await labels(a, a.token)).toEqual(['renamed-by-b']);

    // A clean stop revokes the tokens that start generated, and only those.
    await b.close();
    expect((await call(a, 'GET', '/profile', { token: b.token })).status).toBe(401);
    expect((await call(a, 'GET', '/profile', { token: a.token })).status).toBe(200);
  });

  it('revokes at start the generated tokens of processes that are gone (a kill -9)', async () => {
    const a = running[0]!;
    // As if a's process had died without stopping: its pid no longer runs.
    const meta = JSON.parse(a.store.getMeta('generated_tokens:owner')!) as { id: number; pid: number }[];
    a.store.setMeta('generated_tokens:owner', JSON.stringify(meta.map((t) => ({ ...t, pid: 2 ** 22 + 12345 }))));
    const c = await start();
    expect((await call(c, 'GET', '/profile', { token: a.token })).status).toBe(401);
    expect((await call(c, 'GET', '/profile', { token: c.token })).status).toBe(200);
  });
});

describe('two processes writing one data file', () => {
  it('interleaved writes from both all succeed (each write waits for the other’s lock), and every one is stored', async () => {
    const file = join(dir, 'two-processes.sqlite');
    const here = await startService({ data: file, seed: 'empty', speed: 'instant', port: 0, token: OWNER_TOKEN });
    running.push(here);
    const other = await spawnServe(file, OWNER_TOKEN, children);
    const bases = [here.baseUrl, other.base];
    const send = async (base: string, method: string, path: string, body: unknown) => {
      const res = await request(base + path, { method: method as 'POST', headers: { authorization: `Bearer ${OWNER_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.statusCode, body: (await res.body.json()) as { id: number; errors?: unknown } };
    };
    const shared = await send(here.baseUrl, 'POST', '/managed/contacts', { name: 'shared', email: 'shared@example.com' });
    // Creates (a counter, then a row) and updates of one row (a read, then a write) from both sides at once.
    const replies = await Promise.all(
      Array.from({ length: 240 }, (_, i) => {
        const base = bases[i % 2]!;
        return i % 3 === 0
          ? send(base, 'PUT', `/managed/contacts/${shared.body.id}`, { name: `shared ${i}` })
          : send(base, 'POST', '/managed/contacts', { name: `contact ${i}`, email: `c${i}@example.com` });
      }),
    );
    expect(replies.filter((r) => r.status !== 200)).toEqual([]);
    const created = replies.filter((_, i) => i % 3 !== 0).map((r) => r.body.id);
    const listed = new Set<number>();
    for (let page = 1; page <= 3; page++) {
      const res = await call(here, 'GET', `/managed/contacts?page=${page}&page_size=100`, { token: OWNER_TOKEN });
      for (const c of res.body.data as { id: number }[]) listed.add(c.id);
    }
    expect(created.filter((id) => !listed.has(id))).toEqual([]);
    expect(listed.size).toBe(created.length + 1);
  }, 60_000);

  it('a write that finds the file locked past the wait is answered 503 with Retry-After and applies nothing; reads go on meanwhile', async () => {
    const file = join(dir, 'locked.sqlite');
    const svc = await startService({ data: file, seed: 'empty', speed: 'instant', port: 0, token: OWNER_TOKEN });
    running.push(svc);
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const startedAt = Date.now();
      const read = await call(svc, 'GET', '/managed/contacts', { token: OWNER_TOKEN });
      expect(read.status).toBe(200);
      expect(Date.now() - startedAt).toBeLessThan(1000);
      const write = await call(svc, 'POST', '/managed/contacts', { token: OWNER_TOKEN, body: { name: 'blocked', email: 'blocked@example.com' } });
      expect(write.status).toBe(503);
      expect(write.headers['retry-after']).toBe('1');
      expect(write.body.errors[0].reason).toMatch(/locked by another process .* try again/);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const after = await call(svc, 'POST', '/managed/contacts', { token: OWNER_TOKEN, body: { name: 'after', email: 'after@example.com' } });
    expect(after.status).toBe(200);
    expect(((await call(svc, 'GET', '/managed/contacts', { token: OWNER_TOKEN })).body.data as { name: string }[]).map((c) => c.name)).toEqual(['after']);
  }, 20_000);
});
