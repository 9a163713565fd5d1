import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, ESC, TAB } from '../../helpers/ink.js';
import { app, gone, jump, press, select, wait, type App } from './harness.js';

// Outside tmux, whatever terminal runs the tests: the copy is the OSC 52 sequence itself.
vi.stubEnv('TMUX', '');

let svc: RunningService;
let dir: string;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  dir = mkdtempSync(join(tmpdir(), 'vmtui-objects-'));
});
afterAll(() => svc.close());

const ASSETS = '/object-storage/buckets/us-east-1/assets-prod';

/** The assets-prod bucket's top folder, with `name` selected. */
async function openAssets(name: string): Promise<App> {
  const r = app(svc);
  await jump(r, 'buckets', /\d items/);
  await select(r, 'assets-prod');
  await press(r, ENTER, /us-east-1\/assets-prod\/\s+\d+ items/);
  await select(r, name);
  return r;
}

describe('object ACLs', () => {
  it('shows an object ACL with its grants, and changes it', async () => {
    const r = await openAssets('robots.txt');
    await press(r, 'a', 'Actions: robots.txt');
    await press(r, 'v', /robots\.txt: ACL public-read \(owner FULL_CONTROL, AllUsers READ\)/);
    await press(r, 'a', 'Actions: robots.txt');
    await press(r, 'l', 'Object ACL');
    await press(r, ENTER, 'ACL: choose');
    await press(r, 'G', /› custom/);
    await press(r, 'k', /› public-read-write/);
    await press(r, 'k', /› authenticated-read/);
    await press(r, ENTER, /ACL \*\s+◂ authenticated-read/);
    await press(r, CTRL_S, /robots\.txt: ACL now authenticated-read/);
    expect((await call(svc, 'GET', `${ASSETS}/object-acl?name=robots.txt`)).body.acl).toBe('authenticated-read');
    const detail = await press(r, 'd', /grants\s+owner FULL_CONTROL, AuthenticatedUsers READ/);
    expect(detail).toMatch(/acl\s+authenticated-read/);
  });
});

describe('pre-signed URLs', () => {
  it('asks for a content type as soon as the method needs one, then shows the URL in full once', async () => {
    const r = await openAssets('index.html');
    await press(r, 'a', 'Actions: index.html');
    await press(r, 'p', 'Pre-signed URL');
    const form = await wait(r, /Object name \*\s+index\.html/);
    expect(form).toMatch(/Method \*\s+◂ GET/);
    expect(form).not.toContain('required for');
    await press(r, TAB, /› Method/);
    await press(r, ' ', /Method \*\s+◂ PUT/);
    await wait(r, /Content type\s+✗ is required for PUT/);
    await press(r, TAB, /› Content type/);
    await press(r, 'text/html', (f) => !f.includes('required for PUT'));
    await press(r, TAB, /› Expires in/);
    r.stdin.write('\x15');
    await press(r, '300', /✗ must be between 360 and 68400/);
    r.stdin.write('\x15');
    await press(r, '600', (f) => !f.includes('between 360'));
    const shown = await press(r, CTRL_S, 'Pre-signed PUT URL: index.html');
    expect(shown).toContain('shown only once');
    expect(shown).toMatch(/Content-Type: text\/html/);
    // The URL in full, on lines of its own with no border or indent: a mouse selection is the URL.
    const lines = shown.split('\n');
    const start = lines.findIndex((l) => l.startsWith('http://'));
    const url = lines.slice(start, lines.indexOf('', start)).join('');
    await press(r, 'Y', 'Copied "Pre-signed PUT URL: index.html" (OSC 52)');
    expect(r.frames.join('')).toContain(`\x1b]52;c;${Buffer.from(url).toString('base64')}\x07`);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__objects\/us-east-1\/assets-prod\/index\.html\?method=PUT&expires=\d+&ct=text%2Fhtml&sig=[0-9a-f]{64}$/);
    // The URL works: an upload with the signed content type replaces the object.
    const put = await fetch(url, { method: 'PUT', body: '<h1>new</h1>', headers: { 'content-type': 'text/html' } });
    expect(put.status).toBe(200);
    await press(r, ENTER, (f) => !f.includes('shown only once'));
  });
});

describe('moving files', () => {
  it('uploads a local file into the folder, downloads it back, and deletes it after the confirm', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'remember the milk\n');
    const r = app(svc);
    await jump(r, 'buckets', /\d items/);
    await select(r, 'assets-prod');
    await press(r, ENTER, /assets-prod\/\s+\d+ items/);
    await select(r, 'css/');
    await press(r, ENTER, /assets-prod\/css\/\s+\d+ items/);
    await press(r, 'c', 'Upload to assets-prod/css/');
    await press(r, join(dir, 'nope.txt'), /✗ no such file/);
    r.stdin.write('\x15');
    await press(r, file, (f) => !f.includes('no such file'));
    await press(r, CTRL_S, /Uploaded css\/notes\.txt \(18 B, text\/plain\)/);
    await wait(r, /notes\.txt\s+18 B/);

    await select(r, 'notes.txt');
    await press(r, 'a', 'Actions: notes.txt');
    await press(r, 'w', 'Download');
    const target = join(dir, 'copy.txt');
    r.stdin.write('\x15');
    await press(r, target, target);
    await press(r, CTRL_S, /Saved 18 B to .*copy\.txt/);
    expect(readFileSync(target, 'utf8')).toBe('remember the milk\n');
    // Downloading again over the file asks first.
    await press(r, 'a', 'Actions: notes.txt');
    await press(r, 'w', 'Download');
    r.stdin.write('\x15');
    await press(r, target, target);
    await press(r, CTRL_S, /copy\.txt exists\. Replace it\?/);
    r.stdin.write(ESC);
    await gone(r, 'Replace it?');
    await press(r, ESC, 'Discard changes?');
    await press(r, TAB, /\[ Discard \]/);
    r.stdin.write(ENTER);
    await gone(r, 'Save as');

    await press(r, CTRL_D, /Delete css\/notes\.txt \(18 B\) from assets-prod\? This cannot be undone/);
    await press(r, TAB, /\[ Delete \]/);
    await press(r, ENTER, /Delete notes\.txt: done/);
    const listed = (await call(svc, 'GET', `${ASSETS}/object-list?prefix=css/`)).body.data as { name: string }[];
    expect(listed.map((o) => o.name)).not.toContain('css/notes.txt');
  });

  it('refuses to delete a folder and explains how', async () => {
    const r = await openAssets('js/');
    await press(r, CTRL_D, /js\/ is a folder: open it \(Enter\) to delete the objects in it/);
  });
});
