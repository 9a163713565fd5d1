import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedApp, type InstalledApp } from '../helpers/installed.js';
import { opensHomeAndQuits } from '../helpers/pty.js';
import { expectServesInstances, spawnServe } from '../helpers/serve-process.js';
import { OWNER_TOKEN } from '../helpers/service.js';

/** What `npm pack` puts in the package, and what installing it gives a user. */
const work = mkdtempSync(join(tmpdir(), 'vmtui-package-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const npm = (args: string[], cwd: string) =>
  spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 240_000, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' } });

interface PackedFile {
  path: string;
}
const packedFiles = (stdout: string) => (JSON.parse(stdout) as { files: PackedFile[] }[])[0]!.files.map((f) => f.path).sort();

/** The package as `npm pack` makes it from a checkout: package.json, README and LICENSE, the bundles built into dist/ (scripts not run). */
let tarball = '';
beforeAll(() => {
  const stage = join(work, 'stage');
  mkdirSync(stage);
  for (const file of ['package.json', 'README.md', 'LICENSE']) copyFileSync(file, join(stage, file));
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', join(stage, 'dist')], { stdio: 'inherit' });
  const packed = npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], stage);
  if (packed.status !== 0) throw new Error(packed.stderr);
  tarball = join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
}, 120_000);

// npm and a build on a loaded machine take tens of seconds.
describe('the package', { timeout: 90_000 }, () => {
  it('from the checkout holds only dist/, the README, the LICENSE and package.json: no sources, tests, benches, CI or source maps', () => {
    const r = npm(['pack', '--dry-run', '--json', '--ignore-scripts'], process.cwd());
    expect(r.status, r.stderr).toBe(0);
    const files = packedFiles(r.stdout);
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'package.json']));
    expect(files.filter((f) => !/^(dist\/.*|LICENSE|README\.md|package\.json)$/.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
  });

  it('is what docs/install.md says it is: its size and file count, each file of dist/, each dependency', () => {
    const docs = readFileSync('docs/install.md', 'utf8');
    const section = docs.slice(docs.indexOf('## What the package ships'), docs.indexOf('## What an install costs'));
    const [, kB, files] = /about ([\d,]+) kB in (\d+) files/.exec(section) ?? [];
    const r = npm(['pack', '--dry-run', '--json', '--ignore-scripts', tarball], work);
    const [packed] = JSON.parse(r.stdout) as { size: number; entryCount: number; files: PackedFile[] }[];
    expect(Number(files)).toBe(packed!.entryCount);
    // The size moves with every change to the code: the figure holds within a tenth.
    expect(Math.abs(Number(kB!.replace(',', '')) * 1000 - packed!.size) / packed!.size).toBeLessThan(0.1);
    const listed = [...section.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
    const dist = packed!.files.map((f) => f.path).filter((p) => p.startsWith('dist/')).map((p) => p.slice(5));
    const glob = (name: string) => new RegExp(`^${name.replace(/[.]/g, '\\.').replace('*', '.*')}$`);
    for (const file of dist) expect(listed.some((l) => glob(l).test(file)), `dist/${file} is not in the table`).toBe(true);
    for (const row of listed.filter((l) => !l.includes('/') && /\.(js|ts|txt|json)$/.test(l))) expect(dist.some((f) => glob(row).test(f)), `${row} is not in the package`).toBe(true);
    const dependencies = Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies).sort();
    const named = [...section.matchAll(/^\| ([@\w/.-]+(?:, [@\w/.-]+)*) \| /gm)].flatMap((m) => m[1]!.split(', ')).filter((n) => !n.startsWith('`') && n !== 'package' && n !== 'file');
    expect(named.sort()).toEqual(dependencies);
  });

  it('ships the bundles with the licences of the code they inline', () => {
    const r = npm(['pack', '--dry-run', '--json', '--ignore-scripts', tarball], work);
    const files = packedFiles(r.stdout);
    expect(files).toEqual(
      expect.arrayContaining(['dist/vmtui.js', 'dist/app.js', 'dist/service.js', 'dist/embedded-worker.js', 'dist/package.json', 'dist/THIRD-PARTY-LICENSES.txt']),
    );
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    const licences = readFileSync(join(work, 'stage', 'dist', 'THIRD-PARTY-LICENSES.txt'), 'utf8');
    for (const inlined of ['ink', 'react', 'fastify', 'find-my-way', 'zustand', 'otplib', 'uqr', 'ipaddr.js', 'env-paths']) {
      expect(licences, inlined).toMatch(new RegExp(`^${inlined.replace('.', '\\.')}@\\d+\\.\\d+\\.\\d+ \\(MIT\\)\\n\\n(MIT License|The MIT License|Copyright)`, 'm'));
    }
  });

  it('installs with --engine-strict on this Node, runs no install script and builds nothing native, and `vmtui serve` answers at once', async () => {
    const consumer = join(work, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), '{ "name": "consumer", "private": true }\n');
    const r = npm(['install', tarball, '--engine-strict', '--prefer-offline'], consumer);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('EBADENGINE');
    // npm 11 names every package with an install script not yet allowed; the package declares none.
    expect(r.stderr).not.toMatch(/install-scripts|prepare/);
    const lock = JSON.parse(readFileSync(join(consumer, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const installed = Object.keys(lock.packages);
    for (const inlined of ['fastify', 'ink', 'react', 'zustand', 'light-my-request', 'cookie']) expect(installed).not.toContain(`node_modules/${inlined}`);
    expect(installed).toEqual(expect.arrayContaining(['node_modules/vmtui', 'node_modules/undici', 'node_modules/@zxcvbn-ts/core']));
    expect(Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript).map(([name]) => name)).toEqual([]);
    expect(execFileSync('find', [join(consumer, 'node_modules'), '-name', '*.node'], { encoding: 'utf8' })).toBe('');
    const pkg = JSON.parse(readFileSync(join(consumer, 'node_modules', 'vmtui', 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const lifecycle of ['preinstall', 'install', 'postinstall', 'prepare']) expect(pkg.scripts ?? {}).not.toHaveProperty(lifecycle);

    const bin = join(consumer, 'node_modules', '.bin', 'vmtui');
    expect(execFileSync(bin, ['--version'], { encoding: 'utf8' })).toBe(`vmtui ${(JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version}\n`);
    const { child: serve, ready } = await spawnServe(bin, ['serve', '--data', ':memory:', '--port', '0']);
    try {
      expect((await fetch(`${ready.base_url}/regions`)).status).toBe(200);
    } finally {
      serve.kill();
    }
  }, 240_000);
});

describe('the built app with only the package’s dependencies beside it', { timeout: 60_000 }, () => {
  let app: InstalledApp | undefined;
  beforeAll(() => {
    app = installedApp();
  }, 120_000);
  afterAll(() => app?.remove());

  it('serves the API (`vmtui serve`)', async () => {
    await expectServesInstances(process.execPath, [app!.entry, 'serve', '--data', ':memory:', '--port', '0', '--seed', 'demo', '--token', OWNER_TOKEN]);
  });

  it('opens the terminal UI on the embedded demo', async () => {
    const home = join(work, 'home');
    const opened = await opensHomeAndQuits([], { entry: app!.entry, env: { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') } });
    expect(opened.code).toBe(0);
  });
});

describe('ensure-built (before `npm start` on a checkout)', { timeout: 30_000 }, () => {
  /** scripts/ensure-built.mjs alone in a checkout-like folder where esbuild cannot be found, as `npm ci --omit=dev` leaves it. */
  const ensureIn = (withDist: boolean) => {
    const dir = mkdtempSync(join(work, 'ensure-'));
    mkdirSync(join(dir, 'scripts'));
    copyFileSync('scripts/ensure-built.mjs', join(dir, 'scripts', 'ensure-built.mjs'));
    if (withDist) {
      mkdirSync(join(dir, 'dist'));
      writeFileSync(join(dir, 'dist', 'vmtui.js'), '');
    }
    return spawnSync(process.execPath, ['scripts/ensure-built.mjs'], { cwd: dir, encoding: 'utf8' });
  };

  it('without esbuild keeps a dist/ already built, silently', () => {
    const r = ensureIn(true);
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
  });

  it('without esbuild and without dist/ fails with one clear line', () => {
    const r = ensureIn(false);
    expect([r.status, r.stdout, r.stderr]).toEqual([
      1,
      '',
      'vmtui: dist/ is not built and esbuild is not installed: run `npm install` with dev dependencies (or `npm ci`) to build it.\n',
    ]);
  });
});
