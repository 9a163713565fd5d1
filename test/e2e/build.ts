import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Builds the bundle into a directory of its own, so a test run never races
 * with `npm run build` or another test file. It sits under node_modules so
 * the bundle still finds the native better-sqlite3.
 */
export function buildApp(): string {
  const root = join(process.cwd(), 'node_modules', '.cache');
  execFileSync('mkdir', ['-p', root]);
  const dir = mkdtempSync(join(root, 'vmtui-e2e-'));
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', dir], { stdio: 'inherit' });
  return join(dir, 'vmtui.js');
}
