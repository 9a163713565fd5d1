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
});
