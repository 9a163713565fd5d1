// Runs every bench/*.ts in turn; each prints its own medians and ratios.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const only = process.argv[2];
for (const file of readdirSync('bench').filter((f) => f.endsWith('.ts') && (!only || f.includes(only))).sort()) {
  console.log(`\n# ${file}`);
  const r = spawnSync('npx', ['tsx', `bench/${file}`], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}
