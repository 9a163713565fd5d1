// `npm run build:exe`: release/vmtui-linux-x64, one file that runs vmtui (the UI, `serve`, `import`)
// on a Linux x64 host with no Node.js installed: Node's single executable applications, with the
// Node.js running this script (the repository's pinned 24) as the runtime and dist/'s bundles as
// assets (src/boot/exe-main.ts lays them out and runs them). Usage: node scripts/build-exe.mjs [--out FILE]
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { inject } from 'postject';

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(`build:exe: builds for Linux x64 with a Node.js of that platform; this one is ${process.platform}-${process.arch}`);
  process.exit(2);
}
const dist = resolve('dist');
const { values } = parseArgs({ options: { out: { type: 'string', default: join('release', 'vmtui-linux-x64') } } });
const out = resolve(values.out);
const work = mkdtempSync(join(tmpdir(), 'vmtui-exe-build-'));
try {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const assets = readdirSync(dist).filter((f) => !f.endsWith('.map')).sort();
  const hash = createHash('sha256');
  for (const f of assets) hash.update(f).update(readFileSync(join(dist, f)));
  const main = join(work, 'main.cjs');
  await build({
    entryPoints: ['src/boot/exe-main.ts'],
    outfile: main,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    minify: true,
    logLevel: 'warning',
    define: { VMTUI_EXE_ASSETS: JSON.stringify(assets), VMTUI_EXE_BUILD: JSON.stringify(hash.digest('hex').slice(0, 16)) },
  });
  const blob = join(work, 'sea.blob');
  const config = { main, output: blob, disableExperimentalSEAWarning: true, useSnapshot: false, useCodeCache: false, assets: Object.fromEntries(assets.map((f) => [f, join(dist, f)])) };
  writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config));
  execFileSync(process.execPath, ['--experimental-sea-config', join(work, 'sea-config.json')], { stdio: 'inherit' });
  mkdirSync(dirname(out), { recursive: true });
  rmSync(out, { force: true });
  copyFileSync(process.execPath, out);
  chmodSync(out, 0o755);
  await inject(out, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2' });
  console.log(`build:exe: ${out} (${(readFileSync(out).byteLength / 1e6).toFixed(1)} MB, Node.js ${process.version})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
