import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/service.js';
import { call } from '../helpers/service.js';

/** Two services on one data file, as when vmtui runs on the demo account in two terminals. */
const dir = mkdtempSync(join(tmpdir(), 'vmtui-shared-'));
const data = join(dir, 'service.sqlite');
const running: RunningService[] = [];
const start = async () => {
  const svc = await startService({ data, seed: 'empty', speed: 'instant', port: 0 });
  running.push(svc);
  return svc;
};
afterAll(async () => {
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
