// Runs every bench/*.ts in turn (or those whose name holds the argument); each prints its own medians and ratios.
// patch-gains.ts, which builds and times a bundle per patch (some ten minutes), install-size.ts (installs),
// sqlite-binding.ts (installs and two large imports), exe-start.ts (builds the single executable) and tui-soak.ts
// (ten minutes by default) run only when named.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const only = process.argv[2];
const WHEN_NAMED = ['patch-gains.ts', 'install-size.ts', 'sqlite-binding.ts', 'exe-start.ts', 'tui-soak.ts'];
for (const file of readdirSync('bench').filter((f) => f.endsWith('.ts') && (only ? f.includes(only) : !WHEN_NAMED.includes(f))).sort()) {
  console.log(`\n# ${file}`);
  const r = spawnSync('npx', ['tsx', `bench/${file}`], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}
