// The licences of the code esbuild inlines into the bundles: the inlined
// packages are dev dependencies, so an install of vmtui has none of their
// LICENSE files, and their terms (MIT, ISC, BSD) ask for the notice to travel
// with the code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LICENCE_FILE = /^(licen[cs]e|copying|notice)([-._][\w.-]*)?$/i;

/** The package folders (node_modules/…/name or node_modules/…/@scope/name) that a build's inputs come from. */
function inlinedPackages(metafiles) {
  const dirs = new Set();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const m = /^(?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/]+/.exec(input);
      if (m) dirs.add(m[0]);
    }
  }
  return [...dirs];
}

/** One text: each inlined package's name, version and licence, then its licence files (or what its package.json says when it ships none). */
export function thirdPartyLicenses(metafiles) {
  const packages = inlinedPackages(metafiles)
    .map((dir) => ({ dir, pkg: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .sort((a, b) => a.pkg.name.localeCompare(b.pkg.name) || a.pkg.version.localeCompare(b.pkg.version, undefined, { numeric: true }));
  const seen = new Set();
  const sections = [];
  for (const { dir, pkg } of packages) {
    const id = `${pkg.name}@${pkg.version}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const files = readdirSync(dir).filter((f) => LICENCE_FILE.test(f)).sort();
    const texts = files.map((f) => readFileSync(join(dir, f), 'utf8').trim());
    const author = typeof pkg.author === 'string' ? pkg.author : pkg.author?.name;
    const origin = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
    const shipsNone = `The package ships no licence file; its package.json gives the licence ${licenceOf(pkg)}${author ? `, author ${author}` : ''}${origin ? `, source ${origin}` : ''}.`;
    sections.push([`${id} (${licenceOf(pkg)})`, texts.length ? texts.join('\n\n') : shipsNone].join('\n\n'));
  }
  const rule = `\n\n${'-'.repeat(78)}\n\n`;
  return `vmtui's bundles in this folder include code of the following packages, under these licences.${rule}${sections.join(rule)}\n`;
}

function licenceOf(pkg) {
  if (typeof pkg.license === 'string') return pkg.license;
  if (Array.isArray(pkg.licenses)) return pkg.licenses.map((l) => l.type ?? l).join(' OR ');
  return 'no licence named in its package.json';
}
