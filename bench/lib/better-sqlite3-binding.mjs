// src/server/sqlite.ts's interface over better-sqlite3 13 (Node-API), for bench/sqlite-binding.ts
// alone: `scripts/build.mjs --sqlite-binding bench/lib/better-sqlite3-binding.mjs` builds the
// service on it, with better-sqlite3 loaded from beside the bundle at run time.
import BetterSqlite3 from 'better-sqlite3';

export class Database {
  #db;

  constructor(file, opts = {}) {
    this.#db = new BetterSqlite3(file, { timeout: opts.timeoutMs ?? 0 });
  }

  // better-sqlite3's statements have the same get, all, iterate, run, pluck and raw.
  prepare(sql) {
    return this.#db.prepare(sql);
  }

  exec(sql) {
    this.#db.exec(sql);
  }

  pragma(text) {
    return this.#db.pragma(text, { simple: true });
  }

  get inTransaction() {
    return this.#db.inTransaction;
  }

  transaction(fn, begin = 'DEFERRED') {
    const run = this.#db.transaction(fn);
    return begin === 'IMMEDIATE' ? run.immediate() : run.deferred();
  }

  close() {
    if (this.#db.open) this.#db.close();
  }
}

/** better-sqlite3's SqliteError carries the extended result code's name as its code. */
export function sqliteCode(err) {
  const code = err?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}
