import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeSupported, SUPPORTED_NODE } from '../../src/boot/node-version.js';
import { buildApp } from '../e2e/build.js';

describe('the Node.js vmtui runs on', () => {
  it('is what package.json’s engines says', () => {
    expect((JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node).toBe(SUPPORTED_NODE.range);
  });

  it('is 22.16 and later on the 22 line, and 24 and later', () => {
    for (const v of ['v22.16.0', '22.23.3', '24.0.0', 'v24.21.0', '26.12.1']) expect(nodeSupported(v), v).toBe(true);
    for (const v of ['v18.20.0', '20.20.2', '22.15.1', '23.11.0', 'v21.7.3']) expect(nodeSupported(v), v).toBe(false);
  });

  describe('an older one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vmtui-old-node-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('gets one line from the built CLI naming the version it needs, no stack trace, exit 1', () => {
      const entry = buildApp(join(dir, 'dist'));
      // The Node.js this suite runs on, told it is 20: the check reads nothing else.
      const pretend = join(dir, 'pretend-20.cjs');
      writeFileSync(pretend, "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.20.2' } });\nObject.defineProperty(process, 'version', { value: 'v20.20.2' });\n");
      for (const args of [[], ['serve'], ['import', '--help']]) {
        const r = spawnSync(process.execPath, ['--require', pretend, entry, ...args], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
        expect([r.status, r.stdout, r.stderr]).toEqual([1, '', `vmtui: needs ${SUPPORTED_NODE.words}; this is Node.js v20.20.2.\n`]);
      }
    }, 60_000);
  });
});
