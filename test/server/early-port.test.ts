import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/service.js';
import { OWNER_TOKEN, RESTRICTED_TOKEN } from '../helpers/service.js';

let dir: string;
const running: RunningService[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vmtui-early-port-'));
});

afterAll(async () => {
  for (const svc of running) await svc.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, token: string) => request(url, { headers: { authorization: `Bearer ${token}` } }).then(async (res) => ({ status: res.statusCode, body: (await res.body.json()) as { results?: number } }));

describe('the port, open before the service is ready', () => {
  it('gives its address and token first, and answers requests sent before the store was even opened once the service is ready', async () => {
    let early: Promise<{ status: number; body: { results?: number } }>[] = [];
    let listening = false;
    const svc = await startService({
      data: join(dir, 'demo.sqlite'),
      seed: 'demo',
      speed: 'instant',
      port: 0,
      onListening: ({ baseUrl, betaUrl, token }) => {
        listening = true;
        expect(betaUrl).toBe(baseUrl.replace(/\/v4$/, '/v4beta'));
        early = ['/regions', '/vm/instances', '/profile'].map((p) => get(baseUrl + p, token));
      },
    });
    running.push(svc);
    expect(listening).toBe(true);
    const replies = await Promise.all(early);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(replies[0]!.body.results).toBeGreaterThan(0);
    expect(replies[1]!.body.results).toBeGreaterThan(0);
  });

  it('closes again when the service cannot start, and says why', async () => {
    const bad = join(dir, 'bad.sqlite');
    writeFileSync(bad, 'not a database; a list of groceries long enough to fill a header page '.repeat(20));
    let origin = '';
    await expect(
      startService({ data: bad, token: OWNER_TOKEN, restrictedToken: RESTRICTED_TOKEN, port: 0, onListening: ({ baseUrl }) => (origin = new URL(baseUrl).origin) }),
    ).rejects.toThrow(/file is not a database/);
    expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(request(`${origin}/v4/regions`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
