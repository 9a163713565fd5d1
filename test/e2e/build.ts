import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { RunningService, ServiceOptions } from '../../src/server/service.js';
import { spawnApp, type PtyApp, type SpawnOptions } from '../helpers/pty.js';
import { OWNER_TOKEN, startTestService } from '../helpers/service.js';

/**
 * Builds the bundle into a directory of its own, so a test run never races
 * with `npm run build` or another test file. By default it sits under
 * node_modules so the bundle finds the packages it loads at run time; a
 * folder elsewhere needs them beside it (test/helpers/installed.ts).
 */
export function buildApp(dir = cacheDir()): string {
  execFileSync(process.execPath, ['scripts/build.mjs', '--outdir', dir], { stdio: 'inherit' });
  return join(dir, 'vmtui.js');
}

function cacheDir(): string {
  const root = join(process.cwd(), 'node_modules', '.cache');
  execFileSync('mkdir', ['-p', root]);
  return mkdtempSync(join(root, 'vmtui-e2e-'));
}

export interface BuiltApp {
  /** The built entry script. */
  readonly entry: string;
  readonly svc: RunningService;
  /** The built app in a pty, against the file's service unless `args` say otherwise; killed when the file ends (or by killAll). */
  start(args?: string[], opts?: Omit<SpawnOptions, 'entry'>): PtyApp;
  killAll(): void;
}

/**
 * A test file's built app and its service (demo seed unless told): built and
 * started before the file's tests, everything killed, closed and removed after.
 */
export function useBuiltApp(service: Partial<ServiceOptions> = {}): BuiltApp {
  let entry = '';
  let svc: RunningService | undefined;
  const running: PtyApp[] = [];
  beforeAll(async () => {
    entry = buildApp();
    svc = await startTestService({ seed: 'demo', ...service });
  }, 120_000);
  afterAll(async () => {
    for (const app of running.splice(0)) app.kill();
    await svc?.close();
    if (entry) rmSync(dirname(entry), { recursive: true, force: true });
  });
  return {
    get entry() {
      return entry;
    },
    get svc() {
      return svc!;
    },
    start(args = ['--api-url', svc!.baseUrl, '--token', OWNER_TOKEN], opts = {}) {
      const app = spawnApp(args, { ...opts, entry });
      running.push(app);
      return app;
    },
    killAll() {
      for (const app of running.splice(0)) app.kill();
    },
  };
}
