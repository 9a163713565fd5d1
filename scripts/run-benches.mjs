// Runs every bench/*.ts in turn (or those whose name holds the argument); each prints its own medians and ratios.
// patch-gains.ts, which builds and times a bundle per patch (some ten minutes), runs only when named.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const only = process.argv[2];
for (const file of readdirSync('bench').filter((f) => f.endsWith('.ts') && (only ? f.includes(only) : f !== 'patch-gains.ts')).sort()) {
  console.log(`\n# ${file}`);
  const r = spawnSync('npx', ['tsx', `bench/${file}`], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}
