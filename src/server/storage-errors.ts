import { dirname } from 'node:path';
import { ApiError } from './errors.js';
import { DataFileError, isDataFileError } from './data-file.js';
import { sqliteCode } from './sqlite.js';

/**
 * What SQLite's errors mean to a client (while serving) and to the person
 * starting the service (while opening the data file).
 */


const is = (code: string | undefined, primary: string) => code === primary || code?.startsWith(`${primary}_`) === true;

/** Seconds a client should wait before trying a write that found the data file locked. */
export const BUSY_RETRY_AFTER_S = 1;

/**
 * The answer to a request that a storage failure stopped, or undefined when
 * the error is not one: a lock held past the wait is a 503 to retry, a full
 * disk or a failing one a 507. The transaction was rolled back either way.
 */
export function requestStorageError(err: unknown): ApiError | undefined {
  const answer = storageAnswer(err);
  // Kept, so a failure while the service sets up can be told as the data file's (openError).
  if (answer) answer.cause = err;
  return answer;
}

function storageAnswer(err: unknown): ApiError | undefined {
  const code = sqliteCode(err);
  if (is(code, 'SQLITE_BUSY') || is(code, 'SQLITE_LOCKED')) {
    return new ApiError(
      503,
      [{ reason: 'The data is locked by another process sharing the data file (a second vmtui service?) for longer than the service waits; the request was not applied, try again' }],
      { 'retry-after': String(BUSY_RETRY_AFTER_S) },
    );
  }
  if (is(code, 'SQLITE_FULL')) {
    return new ApiError(507, [{ reason: 'The disk holding the service’s data file is full; the request was not applied. It works again once space is freed' }]);
  }
  if (is(code, 'SQLITE_IOERR')) {
    return new ApiError(507, [{ reason: `The service could not write its data file (${code}, often a full disk); the request was not applied` }]);
  }
  if (is(code, 'SQLITE_READONLY')) {
    return new ApiError(503, [{ reason: 'The service’s data file became read-only; the request was not applied' }]);
  }
  if (is(code, 'SQLITE_CORRUPT')) {
    return new ApiError(503, [{ reason: 'The service’s data file is damaged; the request was not applied. Restart the service to have the file checked' }]);
  }
  return undefined;
}

/** Why a data file could not be opened, naming it; what to do about it is the caller's to add (it differs for `serve` and the demo). */
export function openError(file: string, err: unknown): DataFileError {
  if (isDataFileError(err)) return err;
  const code = sqliteCode(err);
  const detail = err instanceof Error ? err.message : String(err);
  if (is(code, 'SQLITE_NOTADB')) return new DataFileError(file, `the data file ${file} is not an SQLite database`, true);
  if (is(code, 'SQLITE_CORRUPT')) return new DataFileError(file, `the data file ${file} is damaged (${detail})`, true);
  if (is(code, 'SQLITE_READONLY') || is(code, 'SQLITE_PERM')) return new DataFileError(file, `the data file ${file} is read-only: the service must be able to write it (check its permissions and owner)`);
  if (is(code, 'SQLITE_CANTOPEN')) return new DataFileError(file, `cannot open the data file ${file}: its folder ${dirname(file)} must exist and be writable`);
  if (is(code, 'SQLITE_FULL')) return new DataFileError(file, `no space left on the disk holding the data file ${file}`);
  if (is(code, 'SQLITE_IOERR')) return new DataFileError(file, `cannot read or write the data file ${file}: input/output error (${code}; a full or failing disk?)`);
  if (is(code, 'SQLITE_BUSY')) return new DataFileError(file, `the data file ${file} stayed locked by another process for longer than the service waits`);
  return new DataFileError(file, `cannot open the data file ${file}: ${detail}`);
}
