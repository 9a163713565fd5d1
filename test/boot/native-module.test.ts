import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nativeModuleError } from '../../src/server/native-module.js';
import { installedApp, type InstalledApp } from '../helpers/installed.js';
import { spawnApp } from '../helpers/pty.js';

/** better-sqlite3's addon in an installed copy of the built app, removed or replaced, as `--ignore-scripts` or another Node's build leaves it. */
let app: InstalledApp;
let home: string;
beforeAll(() => {
  app = installedApp();
  home = mkdtempSync(join(tmpdir(), 'vmtui-native-'));
}, 120_000);
afterAll(() => {
  app?.remove();
  if (home) rmSync(home, { recursive: true, force: true });
});

const addon = () => join(app.packageDir('better-sqlite3'), 'build', 'Release', 'better_sqlite3.node');
const serve = () => spawnSync(process.execPath, [app.entry, 'serve', '--data', ':memory:', '--port', '0', '--seed', 'empty'], { encoding: 'utf8', timeout: 30_000 });
const fix = () =>
  `Run \`npm rebuild better-sqlite3\` in ${app.root}; where no prebuilt binary can be downloaded, that compiles it, which needs python3, make and a C++ compiler.`;

describe('better-sqlite3 native part missing or not loadable', { timeout: 60_000 }, () => {
  it('missing: `vmtui serve` names it and the fix in one line, nothing about the data file, no stack', () => {
    rmSync(addon());
    const r = serve();
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `vmtui serve: better-sqlite3's native part (better_sqlite3.node) is not installed: its install script did not run (--ignore-scripts?) or failed. ${fix()}\n`,
    );
  });

  it('missing: the embedded demo says the same, with the terminal restored', async () => {
    const demo = spawnApp([], { entry: app.entry, env: { XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), XDG_CACHE_HOME: join(home, 'cache') } });
    expect(await demo.exited).toBe(1);
    const output = demo.output().replace(/\r?\n/g, '\n');
    expect(output).toContain(
      `vmtui: the embedded service did not start: better-sqlite3's native part (better_sqlite3.node) is not installed: its install script did not run (--ignore-scripts?) or failed. ${fix()}`,
    );
    expect(output).not.toContain('data file');
    expect(output).not.toMatch(/\n\s+at /);
  });

  it('not a library for this system: `vmtui serve` names the file, dlopen’s reason and the fix', () => {
    writeFileSync(addon(), 'not a shared object\n'.repeat(300));
    const r = serve();
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(`vmtui serve: better-sqlite3's native part ${addon()} cannot be loaded (invalid ELF header): it was built for another system, or is damaged. ${fix()}\n`);
  });

  it('built for another Node.js: names both module versions (Node’s own wording of the error)', () => {
    const file = '/srv/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node';
    const err = Object.assign(
      new Error(
        `The module '${file}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 127. This version of Node.js requires\nNODE_MODULE_VERSION 115. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`,
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    expect(nativeModuleError(err)?.message).toMatch(
      new RegExp(`^better-sqlite3's native part ${file} was built for another Node\\.js \\(NODE_MODULE_VERSION 127; this Node\\.js ${process.version.replace(/\./g, '\\.')} needs 115\\)\\. Run \`npm rebuild better-sqlite3\` in /`),
    );
  });

  it('leaves every other error to the data file’s messages', () => {
    expect(nativeModuleError(Object.assign(new Error('unable to open database file'), { code: 'SQLITE_CANTOPEN' }))).toBeUndefined();
    expect(nativeModuleError('text')).toBeUndefined();
  });
});
