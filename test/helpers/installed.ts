import { chmodSync, copyFileSync, cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildApp } from '../e2e/build.js';

export interface InstalledApp {
  /** The folder holding node_modules, as a project that installed vmtui has it. */
  readonly root: string;
  /** The built entry script, node_modules/vmtui/dist/vmtui.js. */
  readonly entry: string;
  /**
   * The Node.js running the suite, where any user can run it: the checkout's
   * pinned one lives in node_modules, under a folder another user may not
   * be able to enter (a clone in a private temp folder).
   */
  readonly node: string;
  /** node_modules/<name> of a package the app loads at run time. */
  packageDir(name: string): string;
  remove(): void;
}

/**
 * The built app laid out as an install of the package puts it, in a fresh
 * folder of the temp dir that any user can read: the bundles in
 * node_modules/vmtui/dist, and the package's `dependencies` (with theirs)
 * copied from this checkout beside it. For a run as another user, who cannot
 * reach a private checkout.
 */
export function installedApp(): InstalledApp {
  const root = mkdtempSync(join(tmpdir(), 'vmtui-installed-'));
  chmodSync(root, 0o755);
  const modules = join(root, 'node_modules');
  const dist = join(modules, 'vmtui', 'dist');
  mkdirSync(dist, { recursive: true });
  const entry = buildApp(dist);
  const copied = new Set<string>();
  const copy = (name: string) => {
    const from = join('node_modules', name);
    // One not hoisted came with the package that needs it, in that package's own node_modules.
    if (copied.has(name) || !existsSync(from)) return;
    copied.add(name);
    cpSync(from, join(modules, name), { recursive: true, dereference: true });
    for (const dep of Object.keys(dependenciesOf(join(from, 'package.json')))) copy(dep);
  };
  for (const name of Object.keys(dependenciesOf('package.json'))) copy(name);
  const node = join(root, 'bin', 'node');
  mkdirSync(dirname(node));
  try {
    // A link where the file system allows it: the binary is over 100 MB.
    linkSync(process.execPath, node);
  } catch {
    copyFileSync(process.execPath, node);
  }
  chmodSync(node, 0o755);
  return { root, entry, node, packageDir: (name) => join(modules, name), remove: () => rmSync(root, { recursive: true, force: true }) };
}

function dependenciesOf(packageJson: string): Record<string, string> {
  return (JSON.parse(readFileSync(packageJson, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
}
