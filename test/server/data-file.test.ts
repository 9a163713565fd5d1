import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/server/sqlite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src/server/service.js';
import { Store } from '../../src/server/store.js';
import { isDataFileError, keyFileOf, moveAside } from '../../src/server/data-file.js';
import { startEmbedded } from '../../src/server/embedded.js';
import { installedApp, type InstalledApp } from '../helpers/installed.js';
import { call, OWNER_TOKEN, type Reply } from '../helpers/service.js';

/** Data files that cannot be used: each is refused at start, naming the file and what is wrong. */
const dir = mkdtempSync(join(tmpdir(), 'vmtui-datafile-'));
chmodSync(dir, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const freshFile = () => join(dir, `case-${++n}`, 'service.sqlite');
const start = (data: string) => startService({ data, seed: 'empty', speed: 'instant', port: 0, token: OWNER_TOKEN });

async function refusal(data: string): Promise<{ message: string; startOver: boolean }> {
  const err = await start(data).then(
    async (svc) => {
      await svc.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  if (!isDataFileError(err)) throw new Error(`expected a DataFileError, got ${String(err)}`);
  return { message: err.message, startOver: err.startOver };
}

/** A data file made by the service, closed again. */
async function madeFile(): Promise<string> {
  const data = freshFile();
  await (await start(data)).close();
  return data;
}

/**
 * The built app, installed where any user can read it: run as root's `nobody` (below), it could not
 * reach a private checkout (a clone in a 0700 folder) nor the tsx there.
 */
let app: InstalledApp | undefined;
beforeAll(() => {
  app = installedApp();
}, 120_000);
afterAll(() => app?.remove());

/** `vmtui serve` on a data file, as root's `nobody` when the test runs as root (root writes anything). */
function serveOnce(data: string): Promise<{ code: number | null; stderr: string }> {
  const asOther = process.getuid?.() === 0 ? { uid: 65534, gid: 65534, env: { ...process.env, HOME: tmpdir() } } : {};
  const child = spawn(app!.node, [app!.entry, 'serve', '--port', '0', '--data', data, '--seed', 'empty', '--token', OWNER_TOKEN], {
    stdio: ['ignore', 'pipe', 'pipe'],
    ...asOther,
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', (c: Buffer) => {
    if (c.toString().includes('base root')) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the data file', () => {
  it('is created private, with its folder, WAL, SHM and key file; an earlier version’s 0644 file is made private', async () => {
    const data = freshFile();
    const svc = await start(data);
    expect((await call(svc, 'POST', '/managed/contacts', { body: { name: 'alice', email: 'alice@example.com' } })).status).toBe(200);
    expect(mode(join(data, '..'))).toBe(0o700);
    for (const path of [data, `${data}-wal`, `${data}-shm`, keyFileOf(data)]) expect([path, mode(path)]).toEqual([path, 0o600]);
    await svc.close();

    chmodSync(data, 0o644);
    await (await start(data)).close();
    expect(mode(data)).toBe(0o600);
  });

  it('that is not a database is refused, named, with starting over as the way out', async () => {
    const data = freshFile();
    mkdirSync(join(data, '..'));
    writeFileSync(data, 'name,email\nsomeone,someone@example.com\n'.repeat(200));
    expect(await refusal(data)).toEqual({ message: `the data file ${data} is not an SQLite database`, startOver: true });
  });

  it('with a corrupt page is found at open by the quick check, not served', async () => {
    const data = freshFile();
    const svc = await startService({ data, seed: 'demo', speed: 'instant', port: 0 });
    await svc.close();
    const pages = statSync(data).size / 4096;
    expect(pages).toBeGreaterThan(20);
    const fd = openSync(data, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0x5a), 0, 4096, Math.floor(pages / 2) * 4096);
    closeSync(fd);
    const { message, startOver } = await refusal(data);
    expect(message).toMatch(new RegExp(`^the data file ${data} is damaged \\(SQLite's check found: .*page \\d+`));
    expect(startOver).toBe(true);
  });

  it('of another program is refused, not filled with this service’s tables', async () => {
    const data = freshFile();
    mkdirSync(join(data, '..'));
    const other = new Database(data);
    other.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)');
    other.close();
    expect((await refusal(data)).message).toBe(`the data file ${data} is an SQLite database of something else (its tables: invoices)`);
    const after = new Database(data);
    expect(after.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all()).toEqual(['invoices']);
    after.close();
  });

  it('that is read-only, or in a folder the service cannot write, is named by `vmtui serve` with the reason, without a stack trace', async () => {
    const readOnly = await madeFile();
    chmodSync(join(readOnly, '..'), 0o777);
    chmodSync(readOnly, 0o444);
    const ro = await serveOnce(readOnly);
    expect(ro.code).toBe(1);
    expect(ro.stderr).toBe(`vmtui serve: the data file ${readOnly} is read-only: the service must be able to write it (check its permissions and owner).\n`);

    const folder = join(dir, 'locked');
    mkdirSync(folder, { mode: 0o555 });
    chmodSync(folder, 0o555);
    const inLocked = join(folder, 'service.sqlite');
    const locked = await serveOnce(inLocked);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toBe(
      `vmtui serve: the folder ${folder} of the data file ${inLocked} is not writable: SQLite keeps its journal files beside the data file.\n`,
    );
  }, 30_000);

  it('that is broken tells `vmtui serve` users to move it aside', async () => {
    const data = freshFile();
    mkdirSync(join(data, '..'), { mode: 0o777 });
    chmodSync(join(data, '..'), 0o777);
    writeFileSync(data, 'not a database at all, just text', { mode: 0o666 });
    chmodSync(data, 0o666);
    const { code, stderr } = await serveOnce(data);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `vmtui serve: the data file ${data} is not an SQLite database.\nTo start over, move the file aside (with its -wal, -shm and .key files) or pass another --data file.\n`,
    );
  }, 30_000);
});

describe('a data file another process keeps locked', () => {
  it('is waited for at start, then refused naming it (not as a request that failed)', async () => {
    const data = await madeFile();
    const holder = new Database(data);
    holder.exec('BEGIN IMMEDIATE');
    try {
      expect(await refusal(data)).toEqual({ message: `the data file ${data} stayed locked by another process for longer than the service waits`, startOver: false });
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    await (await start(data)).close();
  }, 20_000);
});

describe('the key file that seals the data file’s secrets', () => {
  it('missing or swapped, is named at start (and no stray key is left behind)', async () => {
    const data = await madeFile();
    const key = readFileSync(keyFileOf(data));
    rmSync(keyFileOf(data));
    expect(await refusal(data)).toEqual({
      message: `the key file ${keyFileOf(data)} that seals the secrets in ${data} is missing: put it back beside the data file`,
      startOver: true,
    });
    expect(existsSync(keyFileOf(data))).toBe(false);

    writeFileSync(keyFileOf(data), `${'ab'.repeat(32)}\n`, { mode: 0o600 });
    expect((await refusal(data)).message).toBe(`the key file ${keyFileOf(data)} is not the one that sealed the secrets in ${data}: put the right one back`);
    writeFileSync(keyFileOf(data), 'garbage');
    expect((await refusal(data)).message).toBe(`the key file ${keyFileOf(data)} that seals the secrets of ${data} is damaged (it should hold 64 hex digits)`);

    writeFileSync(keyFileOf(data), key);
    await (await start(data)).close();
  });
});

describe('starting the demo over (--fresh)', () => {
  it('keeps the old file aside with its WAL and key, and the old file still opens with them', async () => {
    const data = await madeFile();
    const svc = await start(data);
    const made = await call(svc, 'POST', '/managed/contacts', { body: { name: 'kept', email: 'kept@example.com' } });
    expect(made.status).toBe(200);
    // Still running: the last writes are in the WAL, which must move with the file.
    const aside = moveAside(data, new Date('2026-11-25T13:05:09.123Z'))!;
    expect(aside).toBe(`${data}.broken-20261125T130509Z`);
    expect(existsSync(data) || existsSync(keyFileOf(data))).toBe(false);
    const old = new Store(aside);
    expect(old.get('managed_contact', made.body.id)).toMatchObject({ name: 'kept' });
    old.close();
    await svc.close();
    expect(moveAside(data)).toBeUndefined();
  });

  it('is what the embedded demo’s refusal of a broken file suggests, naming the file', async () => {
    const data = freshFile();
    mkdirSync(join(data, '..'));
    writeFileSync(data, 'x'.repeat(5000));
    const err = await startEmbedded(data).then(
      (svc) => svc.started.then(() => svc.close()),
      (e: unknown) => e as Error,
    );
    expect((err as Error).message).toBe(
      `the embedded service did not start: the data file ${data} is not an SQLite database. \`vmtui --fresh\` starts the demo account over; the old file is kept aside as ${data}.broken-<time>`,
    );
  });
});

describe('a full disk', () => {
  let svc: RunningService;
  afterAll(() => svc?.close());

  it('answers 507 with a reason, applies nothing, and writes work again once there is space', async () => {
    svc = await start(freshFile());
    const { db } = svc.store;
    // SQLite's cap on the file's pages stands in for the disk: at the cap, a write fails with SQLITE_FULL as on a full disk.
    db.pragma(`max_page_count = ${db.pragma('page_count') as number}`);
    let full: Reply | undefined;
    const before = (await call(svc, 'GET', '/managed/contacts')).body.results as number;
    for (let i = 0; i < 200 && !full; i++) {
      const res = await call(svc, 'POST', '/managed/contacts', { body: { name: `contact ${i}`, email: `c${i}@example.com` } });
      if (res.status !== 200) full = res;
    }
    expect(full?.status).toBe(507);
    expect(full?.body.errors[0].reason).toMatch(/disk .* is full; the request was not applied/);
    const stored = (await call(svc, 'GET', '/managed/contacts')).body.results as number;
    expect(stored).toBeGreaterThanOrEqual(before);

    db.pragma('max_page_count = 1073741823');
    const again = await call(svc, 'POST', '/managed/contacts', { body: { name: 'after', email: 'after@example.com' } });
    expect(again.status).toBe(200);
    expect((await call(svc, 'GET', '/managed/contacts')).body.results).toBe(stored + 1);
  });
});
