import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { spawnServe } from '../helpers/service.js';

const TOKEN = 'durability-owner-token-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'vmtui-durability-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const serve = (data: string) => spawnServe(data, TOKEN, children);

const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

describe('durability', () => {
  it('keeps every acknowledged write across a kill -9', async () => {
    const data = join(dir, 'kill.sqlite');
    const first = await serve(data);
    const created: number[] = [];
    await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await request(`${first.base}/managed/contacts`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ name: `contact ${i}`, email: `c${i}@example.com` }),
        });
        const body = (await res.body.json()) as { id: number };
        if (res.statusCode === 200) created.push(body.id);
      }),
    );
    expect(created).toHaveLength(40);
    first.child.kill('SIGKILL');
    await new Promise((r) => first.child.once('exit', r));

    const second = await serve(data);
    const res = await request(`${second.base}/managed/contacts?page_size=100`, { headers: auth });
    const page = (await res.body.json()) as { data: { id: number }[] };
    expect(page.data.map((c) => c.id).sort((a, b) => a - b)).toEqual(created.sort((a, b) => a - b));
    second.child.kill('SIGTERM');
  }, 30000);

  it('stops cleanly on SIGTERM', async () => {
    const { child } = await serve(join(dir, 'term.sqlite'));
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(out).toMatch(/stopped/);
  }, 20000);
});
