import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as a user gets it: `npm pack` of the built repository, installed with npm into a
 * project of its own outside the repository, where the examples of docs/testing.md run against it
 * (Vitest, Jest's setup, Python's fixture, the GitHub Actions job's shell steps).
 */

const REPO = process.cwd();
const EXAMPLES = join(REPO, 'docs', 'examples');
const versionOf = (name: string) => (JSON.parse(readFileSync(join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

let root: string;
let project: string;
const env = () => ({ ...process.env, PATH: `${join(project, 'node_modules', '.bin')}:${process.env.PATH}`, CI: 'true', NO_COLOR: '1' });
const run = (command: string, args: string[], options: { timeout?: number } = {}) =>
  spawnSync(command, args, { cwd: project, env: env(), encoding: 'utf8', timeout: options.timeout ?? 60_000 });
/** The same, without blocking, so what does not depend on each other runs side by side; no stdin, as under CI. */
const runAside = (command: string, args: string[]) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { cwd: project, env: env(), stdio: ['ignore', 'pipe', 'pipe'], timeout: 90_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'vmtui-consumer-'));
  project = join(root, 'project');
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  // The build ran already: packing runs no script.
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], { encoding: 'utf8' })) as { filename: string }[];
  mkdirSync(project);
  const devDependencies = Object.fromEntries(['vitest', 'typescript', '@types/node'].map((name) => [name, versionOf(name)]));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', devDependencies }));
  // npm installs the tarball's dependencies from what the project's node_modules holds already: no
  // network. So the repository's installed packages are put there first, hard-linked (copied where links cannot go);
  // npm keeps those the tarball's package.json asks for, and removes the rest.
  const modules = join(project, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(REPO, 'node_modules'))) {
    if (entry === '.cache') continue;
    const from = join(REPO, 'node_modules', entry);
    if (spawnSync('cp', ['-al', from, modules]).status !== 0) cpSync(from, join(modules, entry), { recursive: true, verbatimSymlinks: true });
  }
  const install = run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund', join(root, packed!.filename)], { timeout: 110_000 });
  expect(install.status, install.stderr).toBe(0);
  // Each as docs/testing.md shows it (test/docs/code-blocks.test.ts holds the page to these files).
  for (const file of ['library.ts', 'vitest.config.ts', 'vitest.global-setup.ts', 'vitest.example.test.ts', 'jest.config.cjs', 'jest.global-setup.cjs', 'jest.global-teardown.cjs', 'python/test_vmtui.py']) {
    copyFileSync(join(EXAMPLES, file), join(project, file.replace(/^.*\//, '')));
  }
}, 180_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

// Each runs a service, some through npx: slow on a busy machine.
describe('a project that installs the packed vmtui', { timeout: 120_000 }, () => {
  it('gets the package itself, not a link to the repository', () => {
    const installed = join(project, 'node_modules', 'vmtui');
    expect(lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(existsSync(join(installed, 'dist', 'service.js'))).toBe(true);
    expect(existsSync(join(installed, 'dist', 'service.d.ts'))).toBe(true);
  });

  it("runs the library's example as the page shows it", () => {
    // Plain JavaScript as written: node runs it as a module.
    copyFileSync(join(project, 'library.ts'), join(project, 'library.mjs'));
    const ran = run(process.execPath, ['library.mjs']);
    expect(ran.status, ran.stdout + ran.stderr).toBe(0);
  });

  it("runs Vitest with the example config and globalSetup, and a file using vmtui/service's library, typed", () => {
    writeFileSync(
      join(project, 'library.test.ts'),
      `import { expect, test } from 'vitest';
import { ControlError, startService, type Service } from 'vmtui/service';

test('starts the service in this process and controls it', async () => {
  const service: Service = await startService({ seed: 'demo' });
  try {
    const list = await fetch(service.baseUrl + '/vm/instances', { headers: { authorization: 'Bearer ' + service.token } });
    expect(((await list.json()) as { results: number }).results).toBeGreaterThan(0);
    await service.control.snapshot('start');
    await service.control.reset('empty');
    const emptied = await fetch(service.baseUrl + '/vm/instances', { headers: { authorization: 'Bearer ' + service.token } });
    expect(((await emptied.json()) as { results: number }).results).toBe(0);
    await service.control.restore('start');
    await expect(service.control.snapshot('start')).rejects.toBeInstanceOf(ControlError);
  } finally {
    await service.close();
  }
});
`,
    );
    writeFileSync(
      join(project, 'jest-setup.test.ts'),
      `import { createRequire } from 'node:module';
import { expect, test } from 'vitest';

const require = createRequire(import.meta.url);

test("the Jest example's config, globalSetup and globalTeardown", async () => {
  const config = require('./jest.config.cjs');
  await require(config.globalSetup)();
  const regions = await fetch(process.env.VM_API_URL + '/regions', { headers: { authorization: 'Bearer ' + process.env.VM_TOKEN } });
  expect(regions.status).toBe(200);
  await require(config.globalTeardown)();
  await expect(fetch(process.env.VM_API_URL + '/regions')).rejects.toThrow();
});
`,
    );
    const tests = run(join(project, 'node_modules', '.bin', 'vitest'), ['run']);
    const types = run(process.execPath, [
      join(project, 'node_modules', 'typescript', 'bin', 'tsc'),
      ...['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--skipLibCheck'],
      ...['library.test.ts', 'library.ts', 'vitest.config.ts', 'vitest.global-setup.ts', 'vitest.example.test.ts'],
    ]);
    expect(tests.status, tests.stdout + tests.stderr).toBe(0);
    expect(tests.stdout).toMatch(/Tests\s+4 passed/);
    expect(types.status, types.stdout + types.stderr).toBe(0);
  });

  it('requires vmtui/service from CommonJS too', () => {
    const script = "require('vmtui/service').startService().then(async (s) => { console.log(s.baseUrl); await s.close(); })";
    const required = run(process.execPath, ['-e', script]);
    expect(required.stdout, required.stderr).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v4\n$/);
  });

  it("runs the Python example's unittest with the standard library (and under pytest where it is installed)", async () => {
    const hasPytest = run('python3', ['-c', 'import pytest']).status === 0;
    const [unittest, pytest] = await Promise.all([
      runAside('python3', ['-m', 'unittest', '-v', 'test_vmtui']),
      hasPytest ? runAside('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_vmtui.py']) : undefined,
    ]);
    expect(unittest.status, unittest.stderr).toBe(0);
    expect(unittest.stderr).toMatch(/Ran 3 tests[\s\S]*OK/);
    if (!pytest) return;
    expect(pytest.status, pytest.stdout + pytest.stderr).toBe(0);
    expect(pytest.stdout).toMatch(/4 passed/);
  });

  it('runs the shell steps of the GitHub Actions example: start in the background, wait, use, stop', () => {
    const steps = runSteps(readFileSync(join(EXAMPLES, 'github-actions.yml'), 'utf8'));
    const runner = join(root, 'runner');
    mkdirSync(runner);
    const githubEnv = join(runner, 'github-env');
    writeFileSync(githubEnv, '');
    const step = (name: string) => {
      const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', steps.get(name)!], {
        cwd: project,
        env: { ...env(), RUNNER_TEMP: runner, GITHUB_ENV: githubEnv },
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect(result.status, `${name}: ${result.stdout}${result.stderr}`).toBe(0);
      return result;
    };
    step('Start the API service');
    expect(step('Wait until it answers').stdout).toContain('{"ok":true}');
    const vars = Object.fromEntries(readFileSync(githubEnv, 'utf8').trim().split('\n').map((line) => line.split(/=(.*)/s, 2) as [string, string]));
    // What the job's `npm test` would do.
    const probe = spawnSync('curl', ['-fsS', '-H', `Authorization: Bearer ${vars.VM_TOKEN}`, `${vars.VM_API_URL}/regions`], { encoding: 'utf8' });
    expect(probe.status, probe.stderr).toBe(0);
    const { pid } = JSON.parse(readFileSync(join(runner, 'vmtui.json'), 'utf8')) as { pid: number };
    step('Stop the API service');
    expect(waitGone(pid)).toBe(true);
  });

  it('stops when the npx that started it in the background is killed (npx vmtui serve & … kill $!)', () => {
    const ready = join(root, 'npx-ready.json');
    const started = spawnSync('bash', ['-c', `npx --no-install vmtui serve --port 0 --ready-file ${ready} > /dev/null 2>&1 & echo $!`], { cwd: project, env: env(), encoding: 'utf8' });
    const npm = Number(started.stdout.trim());
    expect(waitFor(() => existsSync(ready))).toBe(true);
    const { pid } = JSON.parse(readFileSync(ready, 'utf8')) as { pid: number };
    expect(pid).not.toBe(npm);
    process.kill(npm, 'SIGTERM');
    expect(waitGone(pid)).toBe(true);
  });
});

/** The `run: |` block of each named step of a workflow, dedented. */
function runSteps(workflow: string): Map<string, string> {
  const steps = new Map<string, string>();
  const lines = workflow.split('\n');
  let name = '';
  for (let i = 0; i < lines.length; i++) {
    const named = /^\s+- name: (.+)$/.exec(lines[i]!);
    if (named) name = named[1]!;
    else if (/^\s+- /.test(lines[i]!)) name = '';
    const block = /^(\s+)run: \|$/.exec(lines[i]!);
    if (!block || !name) continue;
    const body: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || lines[i + 1]!.startsWith(`${block[1]}  `))) body.push(lines[++i]!.slice(block[1]!.length + 2));
    steps.set(name, body.join('\n'));
  }
  return steps;
}

function waitFor(ok: () => boolean, ms = 30_000): boolean {
  const until = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > until) return false;
    spawnSync('sleep', ['0.1']);
  }
  return true;
}

/** Gone, or a zombie waiting for its new parent to reap it. */
const waitGone = (pid: number) =>
  waitFor(() => {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    const stat = `/proc/${pid}/stat`;
    return existsSync(stat) && /^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
  }, 10_000);
