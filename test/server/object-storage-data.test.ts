import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { call, startTestService } from '../helpers/service.js';
import type { RunningService } from '../../src/server/service.js';
import { MAX_OBJECT_BYTES, presignedUrl } from '../../src/server/areas/object-storage-urls.js';

const B = '/object-storage/buckets';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
  for (const label of ['data-bucket', 'doomed']) {
    expect((await call(svc, 'POST', B, { body: { label, cluster: 'us-east-1' } })).status).toBe(200);
  }
});
afterAll(() => svc.close());

async function sign(s: RunningService, bucket: string, body: Record<string, unknown>): Promise<string> {
  const r = await call(s, 'POST', `${B}/us-east-1/${bucket}/object-url`, { body });
  expect(r.status).toBe(200);
  return r.body.url;
}

/** A request with a pre-signed URL: no Authorization header, raw bytes in and out. */
async function send(url: string, method: string, opts: { body?: Buffer | string; contentType?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.contentType) headers['content-type'] = opts.contentType;
  const res = await request(url, { method: method as 'GET', headers, body: opts.body });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  const json = (res.headers['content-type'] ?? '').toString().startsWith('application/json') && bytes.length ? JSON.parse(bytes.toString()) : undefined;
  return { status: res.statusCode, headers: res.headers, bytes, json };
}

async function upload(s: RunningService, bucket: string, name: string, body: Buffer | string, contentType: string) {
  const url = await sign(s, bucket, { name, method: 'PUT', content_type: contentType });
  return send(url, 'PUT', { body, contentType });
}

async function download(s: RunningService, bucket: string, name: string) {
  return send(await sign(s, bucket, { name, method: 'GET' }), 'GET');
}

const binary = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));

describe('pre-signed uploads and downloads', () => {
  it('stores bytes with PUT and serves them back with GET', async () => {
    const put = await upload(svc, 'data-bucket', 'bin/blob.dat', binary, 'application/octet-stream');
    expect(put.status).toBe(200);
    const md5 = createHash('md5').update(binary).digest('hex');
    expect(put.headers.etag).toBe(`"${md5}"`);
    const get = await download(svc, 'data-bucket', 'bin/blob.dat');
    expect(get.status).toBe(200);
    expect(get.headers['content-type']).toBe('application/octet-stream');
    expect(get.bytes.equals(binary)).toBe(true);
    const list = await call(svc, 'GET', `${B}/us-east-1/data-bucket/object-list?prefix=bin/`);
    expect(list.body.data).toEqual([expect.objectContaining({ name: 'bin/blob.dat', size: binary.length, etag: md5 })]);
    const bucket = await call(svc, 'GET', `${B}/us-east-1/data-bucket`);
    expect(bucket.body).toMatchObject({ objects: 1, size: binary.length });
  });

  it('keeps a JSON upload as raw bytes while the API still parses JSON', async () => {
    const text = '{"not": "parsed",   "spacing": "kept"}';
    expect((await upload(svc, 'data-bucket', 'config.json', text, 'application/json')).status).toBe(200);
    const get = await download(svc, 'data-bucket', 'config.json');
    expect(get.headers['content-type']).toBe('application/json');
    expect(get.bytes.toString()).toBe(text);
    const acl = await call(svc, 'GET', `${B}/us-east-1/data-bucket/object-acl?name=config.json`);
    expect(acl.body.acl).toBe('private');
    expect((await call(svc, 'PUT', `${B}/us-east-1/data-bucket/object-acl`, { body: { name: 'config.json', acl: 'public-read' } })).body.acl).toBe('public-read');
    expect((await call(svc, 'POST', B, { raw: '{broken' })).status).toBe(400);
  });

  it('handles names with spaces, unicode and dot segments', async () => {
    for (const name of ['docs/read me.txt', 'ünï/çødé ✓.txt', 'a/../b.txt', './x', 'q?a=1#frag', 'trailing/', '%41']) {
      expect([name, (await upload(svc, 'data-bucket', name, `content of ${name}`, 'text/plain')).status]).toEqual([name, 200]);
      const got = await download(svc, 'data-bucket', name);
      expect(got.status).toBe(200);
      expect(got.bytes.toString()).toBe(`content of ${name}`);
    }
    expect((await call(svc, 'GET', `${B}/us-east-1/data-bucket/object-acl?name=${encodeURIComponent('a/../b.txt')}`)).status).toBe(200);
    const names = (await call(svc, 'GET', `${B}/us-east-1/data-bucket/object-list`)).body.data.map((e: { name: string }) => e.name);
    expect(names).toEqual(expect.arrayContaining(['a/../b.txt', './x', '%41', 'trailing/']));
    expect(names).not.toContain('b.txt');
  });

  it('addresses names up to the 1024-byte limit, multibyte ones included', async () => {
    for (const name of ['n'.repeat(1024), `deep/${'€'.repeat(339)}`]) {
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(1024);
      expect((await upload(svc, 'data-bucket', name, 'long', 'text/plain')).status).toBe(200);
      expect((await download(svc, 'data-bucket', name)).bytes.toString()).toBe('long');
    }
  });

  it('replaces an object on a second PUT, resetting its ACL', async () => {
    await upload(svc, 'data-bucket', 'replace.txt', 'one', 'text/plain');
    await call(svc, 'PUT', `${B}/us-east-1/data-bucket/object-acl`, { body: { name: 'replace.txt', acl: 'public-read' } });
    await upload(svc, 'data-bucket', 'replace.txt', 'second version', 'text/markdown');
    const get = await download(svc, 'data-bucket', 'replace.txt');
    expect(get.bytes.toString()).toBe('second version');
    expect(get.headers['content-type']).toBe('text/markdown');
    expect((await call(svc, 'GET', `${B}/us-east-1/data-bucket/object-acl?name=replace.txt`)).body.acl).toBe('private');
  });

  it('uploads with POST too', async () => {
    const url = await sign(svc, 'data-bucket', { name: 'posted.txt', method: 'POST', content_type: 'text/plain' });
    expect((await send(url, 'POST', { body: 'via post', contentType: 'text/plain' })).status).toBe(200);
    expect((await download(svc, 'data-bucket', 'posted.txt')).bytes.toString()).toBe('via post');
  });

  it('deletes with a DELETE URL', async () => {
    await upload(svc, 'data-bucket', 'gone.txt', 'bye', 'text/plain');
    const del = await send(await sign(svc, 'data-bucket', { name: 'gone.txt', method: 'DELETE' }), 'DELETE');
    expect(del.status).toBe(204);
    const get = await download(svc, 'data-bucket', 'gone.txt');
    expect(get.status).toBe(404);
    expect(get.json.errors[0].reason).toMatch(/Object not found/);
    expect((await call(svc, 'GET', `${B}/us-east-1/data-bucket/object-acl?name=gone.txt`)).status).toBe(404);
  });

  it('counts downloaded bytes as transfer', async () => {
    await upload(svc, 'data-bucket', 'transfer.bin', binary, 'application/octet-stream');
    const before = (await call(svc, 'GET', '/object-storage/transfer')).body.used;
    await download(svc, 'data-bucket', 'transfer.bin');
    await download(svc, 'data-bucket', 'transfer.bin');
    expect((await call(svc, 'GET', '/object-storage/transfer')).body.used).toBe(before + 2 * binary.length);
  });
});

describe('pre-signed URL checks', () => {
  it('requires the signed Content-Type', async () => {
    const url = await sign(svc, 'data-bucket', { name: 'typed.txt', method: 'PUT', content_type: 'text/plain' });
    const wrong = await send(url, 'PUT', { body: 'x', contentType: 'text/html' });
    expect(wrong.status).toBe(403);
    expect(wrong.json.errors[0].reason).toMatch(/Content-Type.*text\/plain/);
    expect((await send(url, 'PUT', { body: 'x' })).status).toBe(403);
    expect((await send(url, 'PUT', { body: 'x', contentType: 'text/plain' })).status).toBe(200);
  });

  it('requires the signed method', async () => {
    await upload(svc, 'data-bucket', 'method.txt', 'm', 'text/plain');
    const getUrl = await sign(svc, 'data-bucket', { name: 'method.txt', method: 'GET' });
    const r = await send(getUrl, 'DELETE');
    expect(r.status).toBe(403);
    expect(r.json.errors[0].reason).toMatch(/signed for GET/);
    expect((await send(getUrl, 'GET')).status).toBe(200);
  });

  it('rejects tampered URLs and unsigned requests', async () => {
    const url = new URL(await sign(svc, 'data-bucket', { name: 'bin/blob.dat', method: 'GET' }));
    const otherName = new URL(url);
    otherName.pathname = '/__objects/us-east-1/data-bucket/config.json';
    expect((await send(otherName.toString(), 'GET')).status).toBe(403);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86400));
    expect((await send(later.toString(), 'GET')).status).toBe(403);
    const badSig = new URL(url);
    badSig.searchParams.set('sig', 'ab'.repeat(32));
    const r = await send(badSig.toString(), 'GET');
    expect(r.status).toBe(403);
    expect(r.json.errors[0].reason).toMatch(/signature/);
    const unsigned = await send(`${svc.origin}/__objects/us-east-1/data-bucket/bin/blob.dat`, 'GET');
    expect(unsigned.status).toBe(403);
    expect(unsigned.json).toEqual({ errors: [{ reason: expect.any(String) }] });
  });

  it('rejects an expired URL', async () => {
    const signed = new URL(await sign(svc, 'data-bucket', { name: 'bin/blob.dat', method: 'GET', expires_in: 360 }));
    expect(Number(signed.searchParams.get('expires')) - Date.now() / 1000).toBeGreaterThan(355);
    // The same request signed by the service with an expiry already past.
    const expired = presignedUrl(svc.accounts.primary, svc.origin, {
      cluster: 'us-east-1',
      bucket: 'data-bucket',
      name: 'bin/blob.dat',
      method: 'GET',
      expires: Math.floor(Date.now() / 1000) - 1,
      contentType: '',
    });
    const r = await send(expired, 'GET');
    expect(r.status).toBe(403);
    expect(r.json.errors[0].reason).toBe('Request has expired');
    expect((await send(signed.toString(), 'GET')).status).toBe(200);
  });

  it('answers 404 for a missing object or a bucket deleted after signing', async () => {
    expect((await download(svc, 'data-bucket', 'never-uploaded.txt')).status).toBe(404);
    const url = await sign(svc, 'doomed', { name: 'late.txt', method: 'PUT', content_type: 'text/plain' });
    expect((await call(svc, 'DELETE', `${B}/us-east-1/doomed`)).status).toBe(200);
    const r = await send(url, 'PUT', { body: 'too late', contentType: 'text/plain' });
    expect(r.status).toBe(404);
    expect(r.json.errors[0].reason).toBe('Bucket not found');
  });

  it('refuses objects over the size limit with 413', async () => {
    const url = await sign(svc, 'data-bucket', { name: 'big.bin', method: 'PUT', content_type: 'application/octet-stream' });
    const r = await send(url, 'PUT', { body: Buffer.alloc(MAX_OBJECT_BYTES + 1), contentType: 'application/octet-stream' });
    expect(r.status).toBe(413);
    expect(r.json.errors[0].reason).toMatch(/5 MiB/);
    const fits = await send(url, 'PUT', { body: Buffer.alloc(MAX_OBJECT_BYTES), contentType: 'application/octet-stream' });
    expect(fits.status).toBe(200);
  });

  it('lets a DELETE-signed object leave a non-empty bucket deletable without force', async () => {
    expect((await call(svc, 'POST', B, { body: { label: 'emptied', cluster: 'us-east-1' } })).status).toBe(200);
    await upload(svc, 'emptied', 'only.txt', 'x', 'text/plain');
    expect((await call(svc, 'DELETE', `${B}/us-east-1/emptied`)).status).toBe(400);
    await send(await sign(svc, 'emptied', { name: 'only.txt', method: 'DELETE' }), 'DELETE');
    expect((await call(svc, 'DELETE', `${B}/us-east-1/emptied`)).status).toBe(200);
  });
});

describe('persistence', () => {
  it('keeps object bytes, ACLs and signed URLs across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-os-'));
    const data = join(dir, 'store.sqlite');
    try {
      const first = await startTestService({ data });
      await call(first, 'POST', B, { body: { label: 'durable', cluster: 'us-east-1' } });
      expect((await upload(first, 'durable', 'keep/me.bin', binary, 'application/octet-stream')).status).toBe(200);
      await call(first, 'PUT', `${B}/us-east-1/durable/object-acl`, { body: { name: 'keep/me.bin', acl: 'authenticated-read' } });
      const oldUrl = await sign(first, 'durable', { name: 'keep/me.bin', method: 'GET' });
      await first.close();

      const second = await startTestService({ data });
      try {
        const port = new URL(second.origin).port;
        const reused = await send(oldUrl.replace(/:\d+\//, `:${port}/`), 'GET');
        expect(reused.status).toBe(200);
        expect(reused.bytes.equals(binary)).toBe(true);
        expect((await download(second, 'durable', 'keep/me.bin')).bytes.equals(binary)).toBe(true);
        expect((await call(second, 'GET', `${B}/us-east-1/durable/object-acl?name=keep/me.bin`)).body.acl).toBe('authenticated-read');
        expect((await call(second, 'GET', `${B}/us-east-1/durable`)).body).toMatchObject({ objects: 1, size: binary.length });
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
