import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * better-sqlite3's native addon could not be loaded: an install that skipped
 * its script (`--ignore-scripts`), one built for another Node.js, or a file
 * that is not the addon. Nothing is wrong with the data file then, and
 * starting over would not help: the message names the addon and the fix.
 */
export class NativeModuleError extends Error {
  override readonly name = 'NativeModuleError';
}

export const isNativeModuleError = (err: unknown): err is NativeModuleError => err instanceof Error && err.name === 'NativeModuleError';

const ADDON = 'better_sqlite3.node';

/** The NativeModuleError that opening a database's `err` stands for, or undefined when the addon is not the cause. */
export function nativeModuleError(err: unknown): NativeModuleError | undefined {
  if (!(err instanceof Error)) return undefined;
  const code = (err as { code?: unknown }).code;
  // What better-sqlite3 falls back to when the addon is not where its install puts it.
  const missing = err.message.includes('Could not locate the bindings file');
  if (!missing && code !== 'ERR_DLOPEN_FAILED' && !err.message.includes(ADDON)) return undefined;
  return new NativeModuleError(`${what(err.message, missing)} ${remedy()}`);
}

function what(message: string, missing: boolean): string {
  if (missing) return `better-sqlite3's native part (${ADDON}) is not installed: its install script did not run (--ignore-scripts?) or failed.`;
  const file = new RegExp(`[^'\\s]*${ADDON.replace('.', '\\.')}`).exec(message)?.[0] ?? ADDON;
  const versions = [...message.matchAll(/NODE_MODULE_VERSION (\d+)/g)].map((m) => m[1]);
  if (versions.length === 2) {
    return `better-sqlite3's native part ${file} was built for another Node.js (NODE_MODULE_VERSION ${versions[0]}; this Node.js ${process.version} needs ${versions[1]}).`;
  }
  // dlopen's reason, without the path it starts with: "invalid ELF header", "wrong ELF class: ELFCLASS32", "version `GLIBC_2.38' not found".
  const reason = message.split('\n')[0]!.replace(`${file}: `, '').trim();
  return `better-sqlite3's native part ${file} cannot be loaded (${reason}): it was built for another system, or is damaged.`;
}

/** Where to run the rebuild: the folder whose node_modules holds better-sqlite3 (the project, or a global install's vmtui). */
function remedy(): string {
  let where = 'in the folder vmtui is installed in';
  try {
    where = `in ${dirname(dirname(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'))))}`;
  } catch {
    // Not resolvable from here: the generic wording names the place.
  }
  return `Run \`npm rebuild better-sqlite3\` ${where}; where no prebuilt binary can be downloaded, that compiles it, which needs python3, make and a C++ compiler.`;
}
