import { chmodSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAsset } from 'node:sea';

/**
 * The single executable's entry (`npm run build:exe`, Node's single
 * executable applications). The bundles ride in the executable as assets;
 * they are laid out once per build in a private folder of the user's cache
 * and run from there exactly as an npm install runs them: the embedded
 * service's worker thread and the V8 code caches need files on disk.
 */

/** Set by scripts/build-exe.mjs: the names of the assets (dist/'s files), and a hash of their contents naming this build. */
declare const VMTUI_EXE_ASSETS: string[];
declare const VMTUI_EXE_BUILD: string;

const files = VMTUI_EXE_ASSETS;
const build = VMTUI_EXE_BUILD;

const mine = (path: string) => {
  const s = lstatSync(path, { throwIfNoEntry: false });
  // Ours alone: a folder another user could write would let them put code in what this runs.
  return s !== undefined && s.isDirectory() && s.uid === process.getuid?.() && (s.mode & 0o022) === 0;
};

/** Writes the bundles into a new private folder and moves it into place whole, so a start never sees half a build. */
function layOut(target: string): void {
  const parent = join(target, '..');
  const temp = mkdtempSync(join(parent, '.partial-'));
  for (const f of files) writeFileSync(join(temp, f), new Uint8Array(getAsset(f)), { mode: 0o600 });
  chmodSync(temp, 0o700);
  try {
    renameSync(temp, target);
  } catch {
    // Another start laid the same build out first.
    rmSync(temp, { recursive: true, force: true });
  }
}

function folder(): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const root = join(cache, 'vmtui', 'exe');
  const target = join(root, build);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
    if (!mine(root)) throw new Error('not private');
    if (!mine(target)) {
      rmSync(target, { recursive: true, force: true });
      layOut(target);
    }
    if (mine(target)) return target;
  } catch {
    // A cache that cannot be written (a read-only home, a container): a private folder for this run.
  }
  const run = mkdtempSync(join(tmpdir(), 'vmtui-exe-'));
  for (const f of files) writeFileSync(join(run, f), new Uint8Array(getAsset(f)), { mode: 0o600 });
  process.once('exit', () => rmSync(run, { recursive: true, force: true }));
  return run;
}

const entry = join(folder(), 'vmtui.js');
// The entry reads its arguments from argv[2] on, as under `node vmtui.js`.
process.argv.splice(1, 1, entry);
createRequire(entry)(entry);
