import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnApp, type PtyApp } from '../helpers/pty.js';
import { buildApp } from './build.js';

let entry: string;
let server: Server;
let url: string;
let requests = 0;
const running: PtyApp[] = [];

beforeAll(async () => {
  entry = buildApp();
  // A server that takes every request and never answers: a hung API, a proxy holding on.
  server = createServer(() => void requests++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v4`;
}, 60_000);

afterAll(async () => {
  for (const app of running) app.kill();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (entry) rmSync(dirname(entry), { recursive: true, force: true });
});

describe('quitting while requests hang', () => {
  it('gives the terminal back and ends the process at once', async () => {
    const app = spawnApp(['--api-url', url, '--token', 'hung-token-0123456789abcdef'], { entry });
    running.push(app);
    await app.waitForScreen(/^home$/m);
    while (requests === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(app.alternateScreen()).toBe(true);
    const t0 = performance.now();
    app.press('q');
    expect(await app.exited).toBe(0);
    const took = performance.now() - t0;
    expect(app.alternateScreen()).toBe(false);
    // Without aborting, the process lived until the requests' 15 s timeout.
    expect(took).toBeLessThan(1500);
  });
});
