import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newTokenValue } from '../../src/server/auth.js';
import { openPort } from '../../src/server/port.js';
import { startService, type RunningService } from '../../src/server/service.js';

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

describe('a port opened before the service (the embedded demo thread does so)', () => {
  it('holds requests sent before the service even loaded its data, and they are answered once it is ready, with the token given', async () => {
    const port = await openPort('127.0.0.1', 0);
    const token = newTokenValue();
    const early = ['/regions', '/vm/instances', '/profile'].map((p) => get(`${port.origin}/v4${p}`, token));
    // The requests reach the port before the service starts.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const svc = await startService({ data: join(dir, 'demo.sqlite'), seed: 'demo', speed: 'instant', listening: { port, token } });
    running.push(svc);
    expect(svc.token).toBe(token);
    expect(svc.generatedTokens).toBe(true);
    const replies = await Promise.all(early);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(replies[0]!.body.results).toBeGreaterThan(0);
    expect(replies[1]!.body.results).toBeGreaterThan(0);
  });

  it('is closed when the service cannot start, which says why', async () => {
    const bad = join(dir, 'bad.sqlite');
    writeFileSync(bad, 'not a database; a list of groceries long enough to fill a header page '.repeat(20));
    const port = await openPort('127.0.0.1', 0);
    await expect(startService({ data: bad, listening: { port, token: newTokenValue() } })).rejects.toThrow(`the data file ${bad} is not an SQLite database`);
    await expect(request(`${port.origin}/v4/regions`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('closing the port', () => {
  it('waits for an answer in progress, then closes its keep-alive connection instead of waiting out the idle timeout', async () => {
    const port = await openPort('127.0.0.1', 0);
    port.serve((_req, res) => void setTimeout(() => res.end('{}'), 200));
    const agent = new Agent({ keepAliveTimeout: 60_000 });
    const reply = request(`${port.origin}/v4/regions`, { dispatcher: agent }).then((res) => res.body.text());
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    await port.close();
    expect(await reply).toBe('{}');
    // Before the sweep, close() waited for the 72 s keep-alive timeout.
    expect(Date.now() - started).toBeLessThan(2000);
    await agent.close();
  });

  it('cuts a connection still open after the grace (a never-ending stream)', async () => {
    const port = await openPort('127.0.0.1', 0);
    port.serve((_req, res) => void res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n'));
    const res = await request(`${port.origin}/__control/requests/stream`);
    const started = Date.now();
    await port.close();
    expect(Date.now() - started).toBeLessThan(5000);
    await res.body.text().catch(() => '');
  });
});
