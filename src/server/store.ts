import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { DataFileError, keyFileOf, loadSealKey, prepareDataFile } from './data-file.js';
import { Sealer } from './sealing.js';
import { openError, requestStorageError } from './storage-errors.js';
import { Database, sqliteCode, type SqlValue, type Statement } from './sqlite.js';
import type { SqlFilter } from './filter.js';
import { LruCache } from './lru.js';
import { Clock } from './clock.js';

export type Row = Record<string, unknown>;

export interface InsertOptions {
  parent?: string | null;
  /** A second unique way to find the row: a token hash, cluster/bucket, an address. */
  key?: string | null;
  /** Sort position; defaults to the numeric id, or the next sequence number. */
  ord?: number;
}

export interface PageQuery {
  parent?: string | null;
  filter?: SqlFilter;
  page: number;
  pageSize: number;
  /** Newest first by insertion order, as the events list wants. */
  descending?: boolean;
}

export interface Page<T> {
  data: T[];
  page: number;
  pages: number;
  results: number;
}

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS rows (
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  parent TEXT,
  ord INTEGER NOT NULL,
  key TEXT,
  data TEXT NOT NULL,
  PRIMARY KEY (kind, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rows_by_parent ON rows(kind, parent, ord);
CREATE INDEX IF NOT EXISTS rows_by_ord ON rows(kind, ord);
CREATE UNIQUE INDEX IF NOT EXISTS rows_by_key ON rows(kind, key) WHERE key IS NOT NULL;
CREATE TABLE IF NOT EXISTS counters (kind TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS blobs (id TEXT PRIMARY KEY, body BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

/** Saved states of the account (see snapshots.ts): copies of the tables above, keyed by the snapshot's name. */
const SNAPSHOT_SCHEMA = `
CREATE TABLE IF NOT EXISTS snapshots (name TEXT PRIMARY KEY, created TEXT NOT NULL, taken_ms INTEGER NOT NULL, size INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS snapshot_rows (
  snapshot TEXT NOT NULL, kind TEXT NOT NULL, id TEXT NOT NULL, parent TEXT, ord INTEGER NOT NULL, key TEXT, data TEXT NOT NULL,
  PRIMARY KEY (snapshot, kind, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshot_counters (snapshot TEXT NOT NULL, kind TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (snapshot, kind)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS snapshot_blobs (snapshot TEXT NOT NULL, id TEXT NOT NULL, body BLOB NOT NULL, PRIMARY KEY (snapshot, id));
CREATE TABLE IF NOT EXISTS snapshot_meta (snapshot TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (snapshot, key)) WITHOUT ROWID;
`;

/** The store's SQL fixed in code is some thirty statements; the bound is a guard, not a working size. */
const STATEMENT_CACHE_ENTRIES = 100;
const RESPONSE_CACHE_ENTRIES = 500;
/** Measured as UTF-16, two bytes a character. */
const RESPONSE_CACHE_BYTES = 32 * 1024 * 1024;

/** How long a write waits for another process's lock before it is answered 503. */
const BUSY_TIMEOUT_MS = 5000;

export const KEY_FINGERPRINT_META = 'seal.key_fingerprint';
/** The seal key an exported data file carries until its first open writes it out as the key file (see snapshots.ts). */
export const SHIPPED_KEY_META = 'seal.shipped_key';

/**
 * The service's storage: one table of JSON documents keyed by kind and id, in
 * SQLite with WAL. Every request runs inside `tx`, so its writes land together
 * or not at all; an acknowledged write survives a kill -9.
 */
export class Store {
  readonly db: Database;
  /** Prepared statements of the SQL fixed in code (never of SQL built from a request: see page). */
  private readonly statements = new LruCache<string, Statement>(STATEMENT_CACHE_ENTRIES);
  /** Bumped on every write to a kind, so cached responses know when they went stale. */
  private readonly versions = new Map<string, number>();
  /** Serialized list responses keyed by query and the versions of the kinds they read. */
  readonly responses = new LruCache<string, string>(RESPONSE_CACHE_ENTRIES, (text, key) => 2 * (text.length + key.length), RESPONSE_CACHE_BYTES);
  /** Bumped when another process has written the file (a second service on the same data): then every kind may have changed. */
  private epoch = 0;
  private dataVersion: number | undefined;

  /** Seals the secrets kept in the data (see sealing.ts). */
  readonly sealer: Sealer;

  /** The account's time (see clock.ts): everything time-based in the service reads it, never Date.now. */
  readonly clock: Clock;

  /**
   * Opens (creating it private) and checks the data file: a file that is not
   * a database, is damaged, read-only, or sealed with another key is refused
   * with a DataFileError naming it, never served.
   */
  constructor(readonly file: string) {
    const onDisk = file !== ':memory:';
    if (onDisk) prepareDataFile(file);
    try {
      this.db = new Database(file, { timeoutMs: BUSY_TIMEOUT_MS });
    } catch (err) {
      throw openError(file, err);
    }
    try {
      if (onDisk) this.checkFile();
      // WAL with NORMAL sync is durable against process death; FULL only adds power-loss safety.
      this.db.pragma('synchronous = NORMAL');
      this.db.exec(SCHEMA + SNAPSHOT_SCHEMA);
      this.sealer = onDisk ? this.fileSealer() : new Sealer(randomBytes(32));
      this.clock = new Clock(this);
    } catch (err) {
      this.db.close();
      throw openError(file, err);
    }
  }

  /**
   * WAL mode, then a quick check (its cost grows with the file; the demo's
   * takes about a millisecond), then that the database is this service's.
   */
  private checkFile(): void {
    this.db.pragma('journal_mode = WAL');
    const problem = String(this.db.pragma('quick_check(1)'));
    if (problem !== 'ok') {
      const found = problem.replace(/^\*\*\* in database \w+ \*\*\*\s*/, '').trim();
      throw new DataFileError(this.file, `the data file ${this.file} is damaged (SQLite's check found: ${found})`, true);
    }
    const tables = this.db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").pluck().all() as string[];
    if (tables.length > 0 && !tables.includes('rows')) {
      throw new DataFileError(this.file, `the data file ${this.file} is an SQLite database of something else (its tables: ${tables.slice(0, 5).join(', ')})`, true);
    }
  }

  /**
   * The sealer of the key file beside the data file. The data keeps the key's
   * fingerprint, so a lost or swapped key file is named at start, not found
   * out later as secrets that no longer open.
   */
  private fileSealer(): Sealer {
    const shipped = this.getMeta(SHIPPED_KEY_META);
    const { key, created } = loadSealKey(this.file, shipped === undefined ? undefined : Buffer.from(shipped, 'hex'));
    const sealer = new Sealer(key);
    const expected = this.getMeta(KEY_FINGERPRINT_META);
    if (expected === undefined) this.setMeta(KEY_FINGERPRINT_META, sealer.fingerprint());
    else if (expected === sealer.fingerprint() && shipped !== undefined) this.dropShippedKey();
    else if (expected !== sealer.fingerprint()) {
      // A key made just now cannot open what is sealed; leaving it would only change the message of the next start.
      if (created) rmSync(keyFileOf(this.file));
      throw new DataFileError(
        this.file,
        created
          ? `the key file ${keyFileOf(this.file)} that seals the secrets in ${this.file} is missing: put it back beside the data file`
          : shipped !== undefined
            ? `the key file ${keyFileOf(this.file)} is not the key of the exported file ${this.file}, which carries its own: remove that key file and start again`
            : `the key file ${keyFileOf(this.file)} is not the one that sealed the secrets in ${this.file}: put the right one back`,
        true,
      );
    }
    return sealer;
  }

  /** Once the key file holds the key an export shipped, the data keeps no copy of it: zeroed, not left in a free page. */
  private dropShippedKey(): void {
    this.db.pragma('secure_delete = ON');
    try {
      this.deleteMeta(SHIPPED_KEY_META);
    } finally {
      this.db.pragma('secure_delete = OFF');
    }
  }

  close(): void {
    this.db.close();
  }

  /**
   * Every table was replaced at once (a snapshot restored, the account reset):
   * no cached response and no kind's version can be trusted any more.
   */
  replaced(): void {
    this.epoch++;
    this.responses.clear();
  }

  /** How many prepared statements are kept: the SQL fixed in code, whatever clients send. */
  get cachedStatements(): number {
    return this.statements.size;
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private touch(kind: string): void {
    this.versions.set(kind, (this.versions.get(kind) ?? 0) + 1);
  }

  /** A stamp that changes whenever any of these kinds is written, here or by another process. */
  versionOf(kinds: readonly string[]): string {
    // SQLite's data_version moves only when another connection commits.
    const dataVersion = this.stmt('PRAGMA data_version').pluck().get() as number;
    if (this.dataVersion !== undefined && dataVersion !== this.dataVersion) {
      this.epoch++;
      this.responses.clear();
    }
    this.dataVersion = dataVersion;
    return `${this.epoch}:${kinds.map((k) => this.versions.get(k) ?? 0).join('.')}`;
  }

  /**
   * Runs `fn` in one transaction. A write takes the write lock first (BEGIN
   * IMMEDIATE), waiting up to the busy timeout for another process's: a
   * deferred one that read first could not upgrade once that process had
   * committed (SQLITE_BUSY_SNAPSHOT), and would fail at once. A read starts
   * deferred, so services sharing a file read side by side; the rare read
   * that writes (a value made on first use) and meets that conflict runs
   * again as a write. A storage failure becomes the ApiError to answer.
   */
  tx<T>(fn: () => T, mode: 'read' | 'write' = 'write'): T {
    if (this.db.inTransaction) return fn();
    try {
      if (mode === 'read') {
        try {
          return this.db.transaction(fn, 'DEFERRED');
        } catch (err) {
          if (sqliteCode(err) !== 'SQLITE_BUSY_SNAPSHOT') throw err;
        }
      }
      return this.db.transaction(fn, 'IMMEDIATE');
    } catch (err) {
      throw requestStorageError(err) ?? err;
    }
  }

  nextId(kind: string, start = 1): number {
    const row = this.stmt(
      'INSERT INTO counters (kind, value) VALUES (?, ?) ON CONFLICT(kind) DO UPDATE SET value = value + 1 RETURNING value',
    ).get(kind, start) as { value: number };
    return row.value;
  }

  insert<T extends Row>(kind: string, id: string | number, data: T, opts: InsertOptions = {}): T {
    this.touch(kind);
    const ord = opts.ord ?? (typeof id === 'number' ? id : this.nextId(`${kind}#ord`));
    this.stmt('INSERT INTO rows (kind, id, parent, ord, key, data) VALUES (?, ?, ?, ?, ?, ?)').run(
      kind,
      String(id),
      opts.parent ?? null,
      ord,
      opts.key ?? null,
      JSON.stringify(data),
    );
    return data;
  }

  get<T extends Row = Row>(kind: string, id: string | number): T | undefined {
    const row = this.stmt('SELECT data FROM rows WHERE kind = ? AND id = ?').get(kind, String(id)) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  getByKey<T extends Row = Row>(kind: string, key: string): T | undefined {
    const row = this.stmt('SELECT data FROM rows WHERE kind = ? AND key = ?').get(kind, key) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  parentOf(kind: string, id: string | number): string | null | undefined {
    const row = this.stmt('SELECT parent FROM rows WHERE kind = ? AND id = ?').get(kind, String(id)) as { parent: string | null } | undefined;
    return row?.parent;
  }

  put<T extends Row>(kind: string, id: string | number, data: T): T {
    this.touch(kind);
    this.stmt('UPDATE rows SET data = ? WHERE kind = ? AND id = ?').run(JSON.stringify(data), kind, String(id));
    return data;
  }

  setKey(kind: string, id: string | number, key: string | null): void {
    this.touch(kind);
    this.stmt('UPDATE rows SET key = ? WHERE kind = ? AND id = ?').run(key, kind, String(id));
  }

  delete(kind: string, id: string | number): boolean {
    this.touch(kind);
    return this.stmt('DELETE FROM rows WHERE kind = ? AND id = ?').run(kind, String(id)).changes > 0;
  }

  deleteChildren(kind: string, parent: string): number {
    this.touch(kind);
    return this.stmt('DELETE FROM rows WHERE kind = ? AND parent = ?').run(kind, parent).changes;
  }

  all<T extends Row = Row>(kind: string, parent?: string | null): T[] {
    const rows = (
      parent === undefined
        ? this.stmt('SELECT data FROM rows WHERE kind = ? ORDER BY ord').all(kind)
        : this.stmt('SELECT data FROM rows WHERE kind = ? AND parent IS ? ORDER BY ord').all(kind, parent)
    ) as { data: string }[];
    return rows.map((r) => JSON.parse(r.data) as T);
  }

  count(kind: string, parent?: string | null): number {
    const row = (
      parent === undefined
        ? this.stmt('SELECT count(*) AS n FROM rows WHERE kind = ?').get(kind)
        : this.stmt('SELECT count(*) AS n FROM rows WHERE kind = ? AND parent IS ?').get(kind, parent)
    ) as { n: number };
    return row.n;
  }

  /** One page of a kind, filtered and sorted in SQLite so large lists stay fast. */
  page<T extends Row = Row>(kind: string, q: PageQuery): Page<T> {
    const where = ['kind = ?'];
    const params: SqlValue[] = [kind];
    if (q.parent !== undefined) {
      where.push('parent IS ?');
      params.push(q.parent);
    }
    if (q.filter?.where) {
      where.push(`(${q.filter.where})`);
      params.push(...q.filter.params);
    }
    const clause = where.join(' AND ');
    // A filter's shape is part of its SQL, so a stream of distinct filters would keep a statement each. Kept,
    // each one's native memory outlives its use until V8 happens to run a full collection, which it schedules
    // by the JS heap alone; prepared for this request only, it is freed by the next minor one. Preparing
    // costs tens of microseconds.
    const prepare = q.filter ? (sql: string) => this.db.prepare(sql) : (sql: string) => this.stmt(sql);
    const results = (prepare(`SELECT count(*) AS n FROM rows WHERE ${clause}`).get(...params) as { n: number }).n;
    const pages = Math.max(1, Math.ceil(results / q.pageSize));
    const page = Math.min(q.page, pages);
    const direction = q.descending ? 'DESC' : 'ASC';
    const order = q.filter?.orderBy ? `${q.filter.orderBy}, ord ${direction}` : `ord ${direction}`;
    const rows = prepare(`SELECT data FROM rows WHERE ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`).all(
      ...params,
      q.pageSize,
      (page - 1) * q.pageSize,
    ) as { data: string }[];
    return { data: rows.map((r) => JSON.parse(r.data) as T), page, pages, results };
  }

  /** Whether any row of the kind sorts at or before `ord` (due jobs, without parsing them all). */
  anyUpTo(kind: string, ord: number): boolean {
    return this.stmt('SELECT 1 FROM rows WHERE kind = ? AND ord <= ? LIMIT 1').get(kind, ord) !== undefined;
  }

  /** The row of the kind that sorts first, if it sorts at or before `ord` (the next due job). */
  firstUpTo<T extends Row = Row>(kind: string, ord: number): T | undefined {
    const row = this.stmt('SELECT data FROM rows WHERE kind = ? AND ord <= ? ORDER BY ord LIMIT 1').get(kind, ord) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  putBlob(id: string, body: Buffer): void {
    this.stmt('INSERT INTO blobs (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body').run(id, body);
  }

  getBlob(id: string): Buffer | undefined {
    const row = this.stmt('SELECT body FROM blobs WHERE id = ?').get(id) as { body: Uint8Array } | undefined;
    return row && Buffer.from(row.body.buffer, row.body.byteOffset, row.body.byteLength);
  }

  deleteBlob(id: string): void {
    this.stmt('DELETE FROM blobs WHERE id = ?').run(id);
  }

  getMeta(key: string): string | undefined {
    return (this.stmt('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  }

  deleteMeta(key: string): void {
    this.stmt('DELETE FROM meta WHERE key = ?').run(key);
  }

  setMeta(key: string, value: string): void {
    this.stmt('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
  }
}
