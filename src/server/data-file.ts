import { accessSync, chmodSync, closeSync, constants, existsSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import envPaths from 'env-paths';

/**
 * The service's data file on disk: where it lives, its private folder and
 * mode, the key file beside it that seals its secrets, and moving a broken
 * one aside. File-system only, so the terminal UI can load it cheaply.
 */

/** The service's data when no --data is given: service.sqlite in the user's data folder. */
export function defaultDataFile(): string {
  return join(envPaths('vmtui', { suffix: '' }).data, 'service.sqlite');
}

/**
 * The data file cannot be used; the message names the file and says what is
 * wrong. Recognised by its name, not its class: the app and the service are
 * separate bundles, each with its own copy of this class.
 */
export class DataFileError extends Error {
  override readonly name = 'DataFileError';
  constructor(
    readonly file: string,
    message: string,
    /** True when the file's contents are the problem, so starting over with a new file is the remedy (not for a full disk or a permission). */
    readonly startOver = false,
  ) {
    super(message);
  }
}

export const isDataFileError = (err: unknown): err is DataFileError => err instanceof Error && err.name === 'DataFileError';

/** The files SQLite keeps beside a data file in WAL mode, and the seal key: they travel with it. */
const COMPANIONS = ['-wal', '-shm', '.key'];

export const keyFileOf = (file: string) => `${file}.key`;

const PRIVATE_FILE = 0o600;
const PRIVATE_FOLDER = 0o700;

const errno = (err: unknown) => (err as NodeJS.ErrnoException).code;

/**
 * Readies a data file before SQLite opens it: its folder exists (created
 * 0700), the file exists with mode 0600 (SQLite gives its WAL and SHM files
 * the mode of the data file, and would create it 0644), and both can be
 * written. An earlier version's 0644 file, and the default data folder it
 * made 0755, are made private on the way; a folder of the user's choosing
 * keeps its mode.
 */
export function prepareDataFile(file: string): void {
  const folder = dirname(file);
  try {
    mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER });
    if (file === defaultDataFile() && (statSync(folder).mode & 0o077) !== 0) chmodSync(folder, PRIVATE_FOLDER);
  } catch (err) {
    throw new DataFileError(file, `cannot create the folder ${folder} for the data file ${file}: ${describeErrno(err)}`);
  }
  try {
    accessSync(folder, constants.W_OK | constants.X_OK);
  } catch {
    throw new DataFileError(file, `the folder ${folder} of the data file ${file} is not writable: SQLite keeps its journal files beside the data file`);
  }
  try {
    closeSync(openSync(file, constants.O_RDWR | constants.O_CREAT, PRIVATE_FILE));
  } catch (err) {
    const code = errno(err);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') throw new DataFileError(file, `the data file ${file} is read-only: the service must be able to write it (check its permissions and owner)`);
    if (code === 'EISDIR') throw new DataFileError(file, `the data file ${file} is a folder, not a file`);
    throw new DataFileError(file, `cannot open the data file ${file}: ${describeErrno(err)}`);
  }
  for (const path of [file, `${file}-wal`, `${file}-shm`]) makePrivate(path);
}

/** Tightens a file another version left readable by others; a file someone else owns is left as it is. */
function makePrivate(path: string): void {
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, PRIVATE_FILE);
  } catch (err) {
    if (errno(err) !== 'ENOENT' && errno(err) !== 'EPERM') throw err;
  }
}

function describeErrno(err: unknown): string {
  switch (errno(err)) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

export interface SealKey {
  key: Buffer;
  /** True when this call made the key file (there was none). */
  created: boolean;
}

const KEY_BYTES = 32;
const KEY_TEXT = /^[0-9a-f]{64}\s*$/;

/**
 * The key that seals the data file's secrets, in `<file>.key` (mode 0600),
 * made on first use (from `shipped`, the key an exported file carries, when given). It is written whole under another name and then linked
 * into place, so a second service starting at the same moment reads either
 * no key file or a complete one, and both end up with the same key.
 */
export function loadSealKey(file: string, shipped?: Buffer): SealKey {
  const keyFile = keyFileOf(file);
  const existing = readKeyFile(file, keyFile);
  if (existing) return { key: existing, created: false };
  const key = shipped?.length === KEY_BYTES ? shipped : randomBytes(KEY_BYTES);
  const draft = `${keyFile}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(draft, `${key.toString('hex')}\n`, { mode: PRIVATE_FILE, flag: 'wx' });
    linkSync(draft, keyFile);
    return { key, created: true };
  } catch (err) {
    if (errno(err) !== 'EEXIST') throw new DataFileError(file, `cannot write the key file ${keyFile} that seals the secrets of ${file}: ${describeErrno(err)}`);
    return { key: readKeyFile(file, keyFile)!, created: false };
  } finally {
    rmSync(draft, { force: true });
  }
}

function readKeyFile(file: string, keyFile: string): Buffer | undefined {
  let text: string;
  try {
    text = readFileSync(keyFile, 'utf8');
  } catch (err) {
    if (errno(err) === 'ENOENT') return undefined;
    throw new DataFileError(file, `cannot read the key file ${keyFile} that seals the secrets of ${file}: ${describeErrno(err)}`);
  }
  if (!KEY_TEXT.test(text)) throw new DataFileError(file, `the key file ${keyFile} that seals the secrets of ${file} is damaged (it should hold 64 hex digits)`, true);
  makePrivate(keyFile);
  return Buffer.from(text.trim(), 'hex');
}

/** `20261125T125301Z`: sorts by time and is safe in a file name everywhere. */
const stamp = (now: Date) => now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/**
 * Moves a data file aside as `<file>.broken-<time>`, its WAL, SHM and key file
 * with it (so the old file still opens with everything it had); the name it
 * got, or undefined when there was no file.
 */
export function moveAside(file: string, now = new Date()): string | undefined {
  if (!existsSync(file)) return undefined;
  const aside = `${file}.broken-${stamp(now)}`;
  try {
    renameSync(file, aside);
    for (const suffix of COMPANIONS) {
      try {
        renameSync(file + suffix, aside + suffix);
      } catch (err) {
        if (errno(err) !== 'ENOENT') throw err;
      }
    }
  } catch (err) {
    throw new DataFileError(file, `cannot move the data file ${file} aside as ${aside}: ${describeErrno(err)}`);
  }
  return aside;
}
