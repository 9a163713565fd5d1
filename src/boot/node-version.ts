/**
 * The Node.js releases vmtui runs on, checked before anything else loads:
 * an older one would fail later, deep in a stack trace (no `node:sqlite`, or
 * one without the busy timeout and array rows the store uses). package.json's
 * `engines` says the same (a test holds them together).
 */
export const SUPPORTED_NODE = { range: '^22.16.0 || >=24.0.0', words: 'Node.js 22.16 or newer on the 22 line, or 24 or newer (24 LTS recommended)' };

export function nodeSupported(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major >= 24 || (major === 22 && minor >= 16);
}

if (!nodeSupported(process.versions.node)) {
  process.stderr.write(`vmtui: needs ${SUPPORTED_NODE.words}; this is Node.js ${process.version}.\n`);
  process.exit(1);
}
