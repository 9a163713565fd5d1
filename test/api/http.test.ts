import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { maxConnections, send } from '../../src/api/http.js';

describe('connections to an API', () => {
  it('are few to a service on this machine and more to a remote one', () => {
    for (const local of ['localhost', '127.0.0.1', '127.8.9.10', '[::1]', '[::ffff:127.0.0.1]']) expect(maxConnections(local), local).toBe(6);
    for (const remote of ['api.example.com', '10.0.0.5', '203.0.113.7', '[2001:db8::1]']) expect(maxConnections(remote), remote).toBe(16);
  });

  it('to a loopback service: requests beyond the connections wait for one, then all are answered', async () => {
    const held: ServerResponse[] = [];
    let connections = 0;
    const server = createServer((_req, res) => void held.push(res));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v4/regions`);
    const replies = Array.from({ length: 12 }, () => send('GET', url, {}, undefined, 5000));
    while (held.length < 6) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(connections).toBe(6);
    expect(held).toHaveLength(6);
    // Answering frees the connections for the ones waiting.
    const answer = () => held.splice(0).forEach((res) => res.end('{}'));
    const timer = setInterval(answer, 5);
    const done = await Promise.all(replies);
    clearInterval(timer);
    expect(done.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(connections).toBe(6);
    server.closeAllConnections();
    server.close();
  });

  it('a read on a kept-alive connection the server closed while it lay idle goes again on another; a write does not', async () => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests++;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v4/regions`);
    const sendAll = (method: string) => Promise.allSettled(Array.from({ length: 3 }, () => send(method, url, {}, method === 'GET' ? undefined : '{}', 5000)));
    expect((await sendAll('GET')).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    // The server drops its idle connections, and the app asks before it has seen them go (as when it wakes from sleep).
    server.closeIdleConnections();
    const reads = await sendAll('GET');
    expect(reads.map((r) => (r.status === 'fulfilled' ? r.value.status : String(r.reason)))).toEqual([200, 200, 200]);
    expect(requests).toBe(6);
    server.closeIdleConnections();
    const writes = await sendAll('POST');
    expect(writes.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(writes.map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(['ECONNRESET', 'ECONNRESET', 'ECONNRESET']);
    expect(requests).toBe(6);
    server.close();
  });

  it('an answer already waiting when its timeout fires late (the process stalled) is read, not called a timeout', async () => {
    const server = createServer((_req, res) => {
      res.end('{"ok":true}');
      // The whole process stalls past the client's timeout with the answer sent.
      const until = performance.now() + 300;
      while (performance.now() < until);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v4/regions`);
    const reply = await send('GET', url, {}, undefined, 100);
    expect(reply).toMatchObject({ status: 200, text: '{"ok":true}' });
    server.closeAllConnections();
    server.close();
  });
});
