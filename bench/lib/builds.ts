import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Builds the bundles with `scripts/build.mjs` and these flags (`--without
 * PATCH`, `--full-redraw`) into a folder of their own, and returns the entry.
 * The folder sits under node_modules so the bundle still finds the native
 * better-sqlite3 (the embedded demo).
 */
export function buildVariant(flags: string[] = []): string {
  const root = join(process.cwd(), 'node_modules', '.cache');
  mkdirSync(root, { recursive: true });
  const dir = mkdtempSync(join(root, 'vmtui-bench-'));
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', dir, ...flags], { stdio: 'inherit' });
  return join(dir, 'vmtui.js');
}

/** Removes a folder buildVariant made. */
export const removeBuild = (entry: string) => rmSync(dirname(entry), { recursive: true, force: true });

/** The builds a benchmark times: this one (dist/), and BEFORE (another build's entry) when given, with how many RUNS they take turns for. */
export function comparedBuilds(): { builds: [string, string][]; runs: number } {
  const builds: [string, string][] = [['this build', 'dist/vmtui.js'], ...(process.env.BEFORE ? ([['before', process.env.BEFORE]] as [string, string][]) : [])];
  return { builds, runs: Number(process.env.RUNS ?? (process.env.BEFORE ? 3 : 1)) };
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
