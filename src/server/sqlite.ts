import { createRequire } from 'node:module';
import type * as NodeSqlite from 'node:sqlite';

/**
 * SQLite through Node's own `node:sqlite`: nothing native to build or
 * download, and none of the object-wrap teardown that aborted better-sqlite3
 * 12 on Node 24 (docs/data-file.md#the-sqlite-binding says why this binding,
 * by measurement). The wrapper gives the store what it used: statements that
 * hand back one column (`pluck`) or arrays (`raw`), transactions that begin
 * as asked, pragmas read as a value.
 */

export type SqlValue = null | number | bigint | string | Uint8Array;
export type SqlRow = Record<string, SqlValue>;

/**
 * Node 22 marks the module experimental and says so on stderr at its first
 * load, in the middle of a terminal UI or a `serve --ready-json` line; 24 and
 * 26 no longer do. Only that one warning is held back.
 */
function loadSqlite(): typeof NodeSqlite {
  const emit = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/^SQLite is an experimental feature/.test(text)) return;
    (emit as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return createRequire(import.meta.url)('node:sqlite') as typeof NodeSqlite;
  } finally {
    process.emitWarning = emit;
  }
}

let sqlite: typeof NodeSqlite | undefined;

export class Statement {
  private shape: 'objects' | 'pluck' | 'raw' = 'objects';

  constructor(private readonly stmt: NodeSqlite.StatementSync) {}

  /** Rows come back as their first column alone, from now on (as better-sqlite3's pluck). */
  pluck(): this {
    return this.as('pluck');
  }

  /** Rows come back as arrays of their columns, from now on. */
  raw(): this {
    return this.as('raw');
  }

  private as(shape: 'pluck' | 'raw'): this {
    this.shape = shape;
    this.stmt.setReturnArrays(true);
    return this;
  }

  private shaped(row: unknown): unknown {
    return this.shape === 'pluck' ? (row as SqlValue[])[0] : row;
  }

  get(...params: SqlValue[]): unknown {
    const row = this.stmt.get(...params);
    return row === undefined ? undefined : this.shaped(row);
  }

  all(...params: SqlValue[]): unknown[] {
    const rows = this.stmt.all(...params);
    return this.shape === 'pluck' ? rows.map((r) => (r as unknown as SqlValue[])[0]) : rows;
  }

  *iterate(...params: SqlValue[]): IterableIterator<unknown> {
    for (const row of this.stmt.iterate(...params)) yield this.shaped(row);
  }

  run(...params: SqlValue[]): { changes: number } {
    return { changes: Number(this.stmt.run(...params).changes) };
  }
}

export interface OpenOptions {
  /** How long a write waits for another process's lock (SQLite's busy_timeout). */
  timeoutMs?: number;
}

export class Database {
  private readonly db: NodeSqlite.DatabaseSync;
  private readonly begins = new Map<string, NodeSqlite.StatementSync>();

  constructor(file: string, opts: OpenOptions = {}) {
    sqlite ??= loadSqlite();
    this.db = new sqlite.DatabaseSync(file, { timeout: opts.timeoutMs ?? 0 });
  }

  prepare(sql: string): Statement {
    return new Statement(this.db.prepare(sql));
  }

  exec(sql: string): void {
    this.db.exec(sql);
  }

  /** A pragma's value: the first column of its first row (`ok` for a clean quick_check). */
  pragma(text: string): unknown {
    const row = this.db.prepare(`PRAGMA ${text}`).get() as SqlRow | undefined;
    return row === undefined ? undefined : Object.values(row)[0];
  }

  get inTransaction(): boolean {
    return this.db.isTransaction;
  }

  /** Runs `fn` between BEGIN (deferred or immediate) and COMMIT; anything thrown rolls it back. */
  transaction<T>(fn: () => T, begin: 'DEFERRED' | 'IMMEDIATE' = 'DEFERRED'): T {
    this.statement(`BEGIN ${begin}`).run();
    try {
      const result = fn();
      this.statement('COMMIT').run();
      return result;
    } catch (err) {
      // A failed COMMIT may have ended the transaction already (SQLite rolls back on some errors).
      if (this.db.isTransaction) this.statement('ROLLBACK').run();
      throw err;
    }
  }

  private statement(sql: string): NodeSqlite.StatementSync {
    let s = this.begins.get(sql);
    if (!s) this.begins.set(sql, (s = this.db.prepare(sql)));
    return s;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}

/**
 * SQLite's result codes by number, as `node:sqlite` reports them (an
 * extended code in `errcode`): the primary ones, and the extended ones the
 * service tells apart or names in a message.
 */
const PRIMARY: Record<number, string> = {
  1: 'ERROR', 2: 'INTERNAL', 3: 'PERM', 4: 'ABORT', 5: 'BUSY', 6: 'LOCKED', 7: 'NOMEM', 8: 'READONLY', 9: 'INTERRUPT',
  10: 'IOERR', 11: 'CORRUPT', 12: 'NOTFOUND', 13: 'FULL', 14: 'CANTOPEN', 15: 'PROTOCOL', 16: 'EMPTY', 17: 'SCHEMA',
  18: 'TOOBIG', 19: 'CONSTRAINT', 20: 'MISMATCH', 21: 'MISUSE', 22: 'NOLFS', 23: 'AUTH', 24: 'FORMAT', 25: 'RANGE', 26: 'NOTADB',
};
const EXTENDED: Record<number, string> = {
  261: 'BUSY_RECOVERY', 517: 'BUSY_SNAPSHOT', 773: 'BUSY_TIMEOUT', 262: 'LOCKED_SHAREDCACHE',
  266: 'IOERR_READ', 522: 'IOERR_SHORT_READ', 778: 'IOERR_WRITE', 1034: 'IOERR_FSYNC', 1290: 'IOERR_DIR_FSYNC', 1546: 'IOERR_TRUNCATE',
  1802: 'IOERR_FSTAT', 2058: 'IOERR_UNLOCK', 2314: 'IOERR_RDLOCK', 2570: 'IOERR_DELETE', 3082: 'IOERR_NOMEM', 3338: 'IOERR_ACCESS',
  3594: 'IOERR_CHECKRESERVEDLOCK', 3850: 'IOERR_LOCK', 4106: 'IOERR_CLOSE', 4618: 'IOERR_SHMOPEN', 4874: 'IOERR_SHMSIZE', 5386: 'IOERR_SHMMAP',
  5642: 'IOERR_SEEK', 6410: 'IOERR_GETTEMPPATH', 6666: 'IOERR_CONVPATH',
  264: 'READONLY_RECOVERY', 520: 'READONLY_CANTLOCK', 776: 'READONLY_ROLLBACK', 1032: 'READONLY_DBMOVED', 1288: 'READONLY_CANTINIT', 1544: 'READONLY_DIRECTORY',
  267: 'CORRUPT_VTAB', 523: 'CORRUPT_SEQUENCE', 779: 'CORRUPT_INDEX',
  270: 'CANTOPEN_NOTEMPDIR', 526: 'CANTOPEN_ISDIR', 782: 'CANTOPEN_FULLPATH', 1038: 'CANTOPEN_CONVPATH', 1294: 'CANTOPEN_DIRTYWAL', 1550: 'CANTOPEN_SYMLINK',
};

/** The SQLITE_… name of an error's result code (`SQLITE_BUSY_SNAPSHOT`, `SQLITE_IOERR_WRITE`), or undefined for an error not SQLite's. */
export function sqliteCode(err: unknown): string | undefined {
  if (!(err instanceof Error)) return undefined;
  const { code, errcode } = err as { code?: unknown; errcode?: unknown };
  if (code !== 'ERR_SQLITE_ERROR' || typeof errcode !== 'number') return undefined;
  const name = EXTENDED[errcode] ?? PRIMARY[errcode] ?? (PRIMARY[errcode & 0xff] ? `${PRIMARY[errcode & 0xff]}_${errcode >> 8}` : undefined);
  return name === undefined ? undefined : `SQLITE_${name}`;
}
