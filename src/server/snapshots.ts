import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashToken } from './auth.js';
import { ApiError, notFound } from './errors.js';
import type { SeedKind } from './accounts.js';
import { seedAccount } from './seed/index.js';
import { SEALED_MARK } from './secrets.js';
import { isSealed, Sealer } from './sealing.js';
import type { Simulation } from './sim.js';
import { Database } from './sqlite.js';
import { KEY_FINGERPRINT_META, SCHEMA, SHIPPED_KEY_META, type Store } from './store.js';

/**
 * Saved states of the account, kept in the store itself (tables beside the
 * live ones, see store.ts): on a data file they outlive the process and are
 * shared by every service on that file; on :memory: they live as long as the
 * service. Saving and restoring are a few INSERT … SELECTs in the request's
 * transaction, so another request sees the account before or after, never
 * half of it.
 *
 * What is not the account's state stays as it is: the seal key's marks
 * (`seal.*`) and the tokens serve issued for its running processes, so a
 * restore or reset never locks out whoever is serving (or calling) it.
 */

export interface SnapshotInfo {
  name: string;
  created: string;
  /** Stored rows (resources, jobs, tokens, …) the snapshot holds. */
  size: number;
}

/** Meta that belongs to the data file and its processes, not to the account: never saved, never replaced. */
const KEPT_META = `(key LIKE 'seal.%' OR key LIKE 'generated\\_token%' ESCAPE '\\')`;
const GENERATED_META = `key LIKE 'generated\\_tokens:%' ESCAPE '\\'`;

interface Generated {
  id: number;
  pid: number;
}

interface StoredRow {
  kind: string;
  id: string;
  parent: string | null;
  ord: number;
  key: string | null;
  data: string;
}

/** The ids of the tokens serve generated for running processes (see seed/index.ts, ensureToken). */
function generatedTokenIds(store: Store): Set<string> {
  const lists = store.db.prepare(`SELECT value FROM meta WHERE ${GENERATED_META}`).pluck().all() as string[];
  return new Set(lists.flatMap((text) => (JSON.parse(text) as Generated[]).map((t) => String(t.id))));
}

export function listSnapshots(store: Store): SnapshotInfo[] {
  return store.db.prepare('SELECT name, created, size FROM snapshots ORDER BY taken_ms, name').all() as SnapshotInfo[];
}

function snapshotInfo(store: Store, name: string): SnapshotInfo & { taken_ms: number } {
  const info = store.db.prepare('SELECT name, created, size, taken_ms FROM snapshots WHERE name = ?').get(name) as (SnapshotInfo & { taken_ms: number }) | undefined;
  if (!info) throw notFound(`No snapshot named ${name}`);
  return info;
}

/** Saves the account as it is now under `name`; a name in use is a 409 (delete it first to replace it). */
export function saveSnapshot(store: Store, name: string, now = store.clock.now()): SnapshotInfo {
  if (store.db.prepare('SELECT 1 FROM snapshots WHERE name = ?').get(name)) {
    throw new ApiError(409, [{ field: 'name', reason: `A snapshot named ${name} exists already: delete it first to save another under that name` }]);
  }
  const generated = [...generatedTokenIds(store)];
  const skipGenerated = generated.length > 0 ? `WHERE NOT (kind = 'token' AND id IN (${generated.map(() => '?').join(',')}))` : '';
  const size = store.db
    .prepare(`INSERT INTO snapshot_rows SELECT ?, kind, id, parent, ord, key, data FROM rows ${skipGenerated}`)
    .run(name, ...generated).changes;
  store.db.prepare('INSERT INTO snapshot_counters SELECT ?, kind, value FROM counters').run(name);
  store.db.prepare('INSERT INTO snapshot_blobs SELECT ?, id, body FROM blobs').run(name);
  store.db.prepare(`INSERT INTO snapshot_meta SELECT ?, key, value FROM meta WHERE NOT ${KEPT_META}`).run(name);
  const created = new Date(now).toISOString().slice(0, 19);
  store.db.prepare('INSERT INTO snapshots (name, created, taken_ms, size) VALUES (?, ?, ?, ?)').run(name, created, now, size);
  return { name, created, size };
}

export function deleteSnapshot(store: Store, name: string): void {
  snapshotInfo(store, name);
  for (const table of ['snapshot_rows', 'snapshot_counters', 'snapshot_blobs', 'snapshot_meta', 'snapshots']) {
    store.db.prepare(`DELETE FROM ${table} WHERE ${table === 'snapshots' ? 'name' : 'snapshot'} = ?`).run(name);
  }
}

/**
 * The tokens that must outlive a restore or reset: those of this process's
 * serve (`values`) and those serve generated for any running process. After
 * the tables are replaced, `putBack` stores again each one the new state
 * lacks, under a new id (the restored counter would hand its old id out
 * again), and points serve's list of generated tokens at the new ids.
 */
function carryServeTokens(store: Store, values: readonly string[]): { putBack(): void } {
  const generated = generatedTokenIds(store);
  const hashes = values.map(hashToken);
  const carried = store.db
    .prepare(`SELECT kind, id, parent, ord, key, data FROM rows WHERE kind = 'token' AND (key IN (${hashes.map(() => '?').join(',') || "''"}) OR id IN (${[...generated].map(() => '?').join(',') || "''"}))`)
    .all(...hashes, ...generated) as StoredRow[];
  return {
    putBack() {
      const moved = new Map<number, number>();
      for (const row of carried) {
        const present = store.getByKey<{ id: number }>('token', row.key!);
        const id = present ? present.id : store.nextId('token');
        if (!present) store.insert('token', id, { ...(JSON.parse(row.data) as Record<string, unknown>), id }, { parent: row.parent, key: row.key });
        moved.set(Number(row.id), id);
      }
      const lists = store.db.prepare(`SELECT key, value FROM meta WHERE ${GENERATED_META}`).all() as { key: string; value: string }[];
      for (const { key, value } of lists) {
        const list = (JSON.parse(value) as Generated[]).map((t) => ({ ...t, id: moved.get(t.id) ?? t.id }));
        store.setMeta(key, JSON.stringify(list));
      }
    },
  };
}

/** Empties the account's tables, keeping the data file's own meta. */
function clearAccount(store: Store): void {
  store.db.exec(`DELETE FROM rows; DELETE FROM counters; DELETE FROM blobs; DELETE FROM meta WHERE NOT ${KEPT_META};`);
}

/**
 * Brings the account back as it was saved, in the caller's transaction.
 * Pending jobs keep the time they had left when it was saved: a boot saved
 * ten seconds from done finishes ten seconds after the restore. The clock
 * is not restored: the account's time never goes back.
 */
export function restoreSnapshot(store: Store, name: string, serveTokens: readonly string[], now = store.clock.now()): SnapshotInfo {
  const info = snapshotInfo(store, name);
  const tokens = carryServeTokens(store, serveTokens);
  // Only what differs is written: comparing is reads, and most of an account is as it was saved.
  store.db
    .prepare(
      `DELETE FROM rows WHERE NOT EXISTS (SELECT 1 FROM snapshot_rows s WHERE s.snapshot = ? AND s.kind = rows.kind AND s.id = rows.id
         AND s.data = rows.data AND s.ord = rows.ord AND s.parent IS rows.parent AND s.key IS rows.key)`,
    )
    .run(name);
  store.db
    .prepare('INSERT INTO rows SELECT kind, id, parent, ord, key, data FROM snapshot_rows s WHERE s.snapshot = ? AND NOT EXISTS (SELECT 1 FROM rows r WHERE r.kind = s.kind AND r.id = s.id)')
    .run(name);
  store.db.prepare('DELETE FROM blobs WHERE NOT EXISTS (SELECT 1 FROM snapshot_blobs s WHERE s.snapshot = ? AND s.id = blobs.id AND s.body = blobs.body)').run(name);
  store.db.prepare('INSERT INTO blobs SELECT id, body FROM snapshot_blobs s WHERE s.snapshot = ? AND NOT EXISTS (SELECT 1 FROM blobs b WHERE b.id = s.id)').run(name);
  store.db.exec(`DELETE FROM counters; DELETE FROM meta WHERE NOT ${KEPT_META};`);
  store.db.prepare('INSERT INTO counters SELECT kind, value FROM snapshot_counters WHERE snapshot = ?').run(name);
  store.db.prepare('INSERT INTO meta SELECT key, value FROM snapshot_meta WHERE snapshot = ?').run(name);
  // The snapshot's meta holds the clock as it was (an export carries it); the account's time goes on from now.
  store.clock.save();
  // A job sorts by its due time (ord = due * 1000 + …, see sim.ts): both move by the time the snapshot was kept.
  const shift = Math.max(0, now - info.taken_ms);
  store.db.prepare("UPDATE rows SET ord = ord + ? * 1000, data = json_set(data, '$.due', json_extract(data, '$.due') + ?) WHERE kind = 'job'").run(shift, shift);
  tokens.putBack();
  store.replaced();
  return { name: info.name, created: info.created, size: info.size };
}

/** Starts the account over from a seed, in the caller's transaction. */
export function resetAccount(store: Store, sim: Simulation, seed: SeedKind, serveTokens: readonly string[]): void {
  const tokens = carryServeTokens(store, serveTokens);
  clearAccount(store);
  store.clock.save();
  seedAccount(store, seed, sim);
  tokens.putBack();
  store.replaced();
}

/** Replaces every sealed string in a JSON value with the same secret sealed by `to`. */
function reseal(value: unknown, from: Sealer, to: Sealer): unknown {
  if (isSealed(value)) return to.seal(from.unseal(value));
  if (Array.isArray(value)) return value.map((v) => reseal(v, from, to));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) out[k] = reseal(v, from, to);
    return out;
  }
  return value;
}

/**
 * A snapshot as a data file of its own, which `serve --data FILE` opens as
 * is: its secrets are sealed under a new key that the file carries, and the
 * first service to open it writes that key out as the file's key file and
 * drops it from the data (see store.ts). So the file alone gives its secrets
 * away until then, as a data file and its key file side by side do: keep a
 * fixture where its data may be read.
 */
export function exportSnapshot(store: Store, name: string): Buffer {
  snapshotInfo(store, name);
  const key = randomBytes(32);
  const sealer = new Sealer(key);
  // Written to a private temporary file and read back whole: Node 22's SQLite has no serialize().
  const dir = mkdtempSync(join(tmpdir(), 'vmtui-export-'));
  const file = join(dir, 'export.db');
  const out = new Database(file);
  try {
    out.exec(SCHEMA);
    const insertRow = out.prepare('INSERT INTO rows (kind, id, parent, ord, key, data) VALUES (?, ?, ?, ?, ?, ?)');
    const insertCounter = out.prepare('INSERT INTO counters (kind, value) VALUES (?, ?)');
    const insertBlob = out.prepare('INSERT INTO blobs (id, body) VALUES (?, ?)');
    const insertMeta = out.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
    out.transaction(() => {
      for (const r of store.db.prepare('SELECT kind, id, parent, ord, key, data FROM snapshot_rows WHERE snapshot = ?').iterate(name) as IterableIterator<StoredRow>) {
        const data = r.data.includes('"sealed:v1:') ? JSON.stringify(reseal(JSON.parse(r.data), store.sealer, sealer)) : r.data;
        insertRow.run(r.kind, r.id, r.parent, r.ord, r.key, data);
      }
      for (const c of store.db.prepare('SELECT kind, value FROM snapshot_counters WHERE snapshot = ?').iterate(name) as IterableIterator<{ kind: string; value: number }>) {
        insertCounter.run(c.kind, c.value);
      }
      for (const b of store.db.prepare('SELECT id, body FROM snapshot_blobs WHERE snapshot = ?').iterate(name) as IterableIterator<{ id: string; body: Uint8Array }>) {
        insertBlob.run(b.id, b.body);
      }
      for (const m of store.db.prepare('SELECT key, value FROM snapshot_meta WHERE snapshot = ?').iterate(name) as IterableIterator<{ key: string; value: string }>) {
        insertMeta.run(m.key, m.value);
      }
      insertMeta.run(KEY_FINGERPRINT_META, sealer.fingerprint());
      insertMeta.run(SHIPPED_KEY_META, key.toString('hex'));
      // Sealed as this version seals: opening it needs no migration of secrets.
      insertMeta.run(...SEALED_MARK);
    });
    out.close();
    return readFileSync(file);
  } finally {
    out.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
