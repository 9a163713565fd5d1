import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import envPaths from 'env-paths';
import type { HistoryStore, ItemHistory } from './history.js';
import type { SessionStore } from './session.js';

/**
 * `history: true` in config.json: what the app saw change is kept across runs
 * in a private file (0600) per account, in the user's state folder. Only
 * items with changes are written: a record merely seen is not history.
 */

/** The user's state folder: XDG_STATE_HOME's on Linux, the app's data folder elsewhere. */
export function stateFolder(): string {
  const paths = envPaths('vmtui', { suffix: '' });
  return process.platform === 'linux' ? paths.log : paths.data;
}

/** One file per account: the API endpoint and the user, hashed (the file name says neither). */
export function historyFile(folder: string, endpoint: string, user: string): string {
  const id = createHash('sha256').update(`${endpoint}\n${user}`).digest('hex').slice(0, 16);
  return join(folder, `history-${id}.json`);
}

const FORMAT = 1;
/** After a change, the file is written this much later, once for a burst of changes. */
export const SAVE_DELAY_MS = 5000;

const isItem = (v: unknown): v is ItemHistory => {
  const i = v as ItemHistory;
  return typeof i === 'object' && i !== null && typeof i.path === 'string' && typeof i.id === 'string' && typeof i.label === 'string' && Array.isArray(i.points) && i.points.length > 0;
};

/** The items of a history file; a file that is missing or not one of ours gives none (and is written over at the next save). */
export function readHistory(file: string): ItemHistory[] {
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { format?: unknown; items?: unknown };
    return raw.format === FORMAT && Array.isArray(raw.items) ? raw.items.filter(isItem) : [];
  } catch {
    return [];
  }
}

export function writeHistory(file: string, items: readonly ItemHistory[]): void {
  mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, JSON.stringify({ format: FORMAT, items: items.filter((i) => i.points.length > 1) }), { mode: 0o600 });
  // An earlier file of another mode: the new one is private whatever the umask.
  chmodSync(partial, 0o600);
  renameSync(partial, file);
}

/**
 * Keeps the history of this account in its file once the user is known:
 * reads what earlier runs saw, then writes after changes and at the end.
 * Returns the function that stops it (and writes what is left).
 */
export function keepHistory(history: HistoryStore, session: SessionStore, folder = stateFolder(), onError: (text: string) => void = () => {}): () => void {
  let file: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    timer = undefined;
    if (!file) return;
    try {
      writeHistory(file, history.getState().all());
    } catch (err) {
      onError(`History not saved to ${file}: ${(err as Error).message}`);
    }
  };
  const open = () => {
    const { user, endpoint } = session.getState();
    if (file || !user) return;
    file = historyFile(folder, endpoint, user);
    history.getState().restore(readHistory(file));
  };
  open();
  const unwatchSession = session.subscribe(open);
  const unwatchHistory = history.subscribe(() => {
    if (!timer) {
      timer = setTimeout(save, SAVE_DELAY_MS);
      timer.unref();
    }
  });
  return () => {
    unwatchSession();
    unwatchHistory();
    clearTimeout(timer);
    save();
  };
}
