/**
 * What `npm install` of the packed tarball costs a user, before and after
 * the move from better-sqlite3 12 to Node's own node:sqlite (#28): `before`
 * is the package as --before-ref built it (its own sources, package.json and
 * lock, installed without scripts to build it), `after` this checkout's. Each
 * run installs both tarballs side by side into fresh folders, so both see the
 * same load on the machine, from npm's cache (`--prefer-offline`), with their
 * install scripts: better-sqlite3 12 compiles from source, as it does
 * wherever its prebuilt binary cannot be downloaded (here, always).
 * Prints, per variant, the medians of the install's wall time, the tarball's
 * size and file count, node_modules' size and package count, the engine
 * warnings npm printed, and the after/before ratios.
 * Usage: npx tsx bench/install-size.ts [--runs N] [--before-ref REF]   (default 1 run, 599f39c: the last on better-sqlite3)
 * The `before` install compiles SQLite (a minute or more of CPU): run it when named only.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { nodeHeaders } from './lib/node-headers.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1' }, 'before-ref': { type: 'string', default: '599f39c' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs ${values.runs}: give a whole number of runs, 1 or more`);

const work = mkdtempSync(join(tmpdir(), 'vmtui-install-size-'));
const npm = (args: string[], cwd: string) => spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

interface Tarball {
  file: string;
  bytes: number;
  files: number;
}

/** `npm pack` in `dir`, scripts not run (the bundles are built already). */
function pack(dir: string, label: string): Tarball {
  // Both are vmtui-<version>.tgz: each gets a folder of its own.
  const destination = join(work, `${label}-tarball`);
  mkdirSync(destination);
  const r = npm(['pack', '--json', '--ignore-scripts', '--pack-destination', destination], dir);
  if (r.status !== 0) throw new Error(`npm pack in ${dir} failed:\n${r.stderr}`);
  const [info] = JSON.parse(r.stdout) as { filename: string; size: number; entryCount: number }[];
  return { file: join(destination, info!.filename), bytes: info!.size, files: info!.entryCount };
}

/** The package as the ref built it: its sources, package.json and lock, its dependencies installed without scripts for the build. */
function packBefore(): Tarball {
  const stage = join(work, 'before');
  mkdirSync(stage);
  execFileSync('sh', ['-c', `git archive '${values['before-ref']}' | tar -x -C '${stage}'`]);
  const ci = npm(['ci', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], stage);
  if (ci.status !== 0) throw new Error(`npm ci in the ${values['before-ref']} tree failed:\n${ci.stderr}`);
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: stage, stdio: 'inherit' });
  return pack(stage, 'before');
}

function packAfter(): Tarball {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  return pack(process.cwd(), 'after');
}

/** Every installed package folder (one with a package.json) under node_modules, nested ones too. */
function countPackages(modules: string): number {
  let n = 0;
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const dirs = name.startsWith('@') ? readdirSync(join(modules, name)).map((s) => join(modules, name, s)) : [join(modules, name)];
    for (const dir of dirs) {
      n++;
      const nested = join(dir, 'node_modules');
      try {
        n += countPackages(nested);
      } catch {
        // No nested node_modules.
      }
    }
  }
  return n;
}

interface Install {
  seconds: number;
  bytes: number;
  packages: number;
  engineWarnings: number;
}

async function install(tarball: Tarball, label: string, run: number): Promise<Install> {
  const dir = join(work, `${label}-${run}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), '{ "name": "consumer", "private": true }\n');
  const start = performance.now();
  // node-gyp compiles against the headers of the Node running this: no download.
  const env = { ...process.env, npm_config_update_notifier: 'false', npm_config_nodedir: nodeHeaders() };
  const child = spawn('npm', ['install', tarball.file, '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, env });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.resume();
  const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seconds = (performance.now() - start) / 1000;
  if (status !== 0) throw new Error(`npm install of the ${label} tarball failed:\n${stderr}`);
  const modules = join(dir, 'node_modules');
  const bytes = Number(execFileSync('du', ['-sb', modules], { encoding: 'utf8' }).split('\t')[0]);
  const result = { seconds, bytes, packages: countPackages(modules), engineWarnings: (stderr.match(/EBADENGINE Unsupported engine/g) ?? []).length };
  rmSync(dir, { recursive: true, force: true });
  return result;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

try {
  const tarballs = { before: packBefore(), after: packAfter() };
  const results: Record<'before' | 'after', Install[]> = { before: [], after: [] };
  for (let run = 0; run < runs; run++) {
    const [before, after] = await Promise.all([install(tarballs.before, 'before', run), install(tarballs.after, 'after', run)]);
    results.before.push(before);
    results.after.push(after);
  }
  const rows = (['before', 'after'] as const).map((label) => {
    const r = results[label];
    return {
      label,
      seconds: median(r.map((x) => x.seconds)),
      mb: median(r.map((x) => x.bytes)) / 1e6,
      packages: median(r.map((x) => x.packages)),
      warnings: median(r.map((x) => x.engineWarnings)),
      tarKb: tarballs[label].bytes / 1e3,
      tarFiles: tarballs[label].files,
    };
  });
  console.log(`npm install of the packed tarball, ${runs} run(s) each, medians (Node ${process.version}):`);
  for (const r of rows) {
    console.log(
      `  ${r.label.padEnd(6)} install ${r.seconds.toFixed(1)} s, node_modules ${r.mb.toFixed(1)} MB in ${r.packages} packages, EBADENGINE warnings ${r.warnings}; tarball ${r.tarKb.toFixed(0)} kB, ${r.tarFiles} files`,
    );
  }
  const [b, a] = rows as [(typeof rows)[0], (typeof rows)[0]];
  console.log(
    `  after/before: install time ${(a.seconds / b.seconds).toFixed(2)}, node_modules ${(a.mb / b.mb).toFixed(2)}, packages ${(a.packages / b.packages).toFixed(2)}, tarball ${(a.tarKb / b.tarKb).toFixed(2)}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
