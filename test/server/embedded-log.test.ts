import { mkdtempSync, readFileSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { errorLogOf, keepErrorLog } from '../../src/server/embedded.js';

const run = (code: string, data: string) =>
  new Promise<void>((done) => {
    const worker = new Worker(code, { eval: true, stderr: true });
    keepErrorLog(worker, data);
    worker.once('exit', () => setTimeout(done, 50));
  });

describe('the embedded service’s stderr', () => {
  it('goes to a private file beside the data file, not over the app’s screen', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'vmtui-errlog-')), 'service.sqlite');
    await run("process.stderr.write('vmtui service: internal error abc123 on GET /v4/regions\\n')", data);
    expect(readFileSync(errorLogOf(data), 'utf8')).toContain('internal error abc123');
    expect(statSync(errorLogOf(data)).mode & 0o777).toBe(0o600);
  });

  it('makes no file while the service has said nothing', async () => {
    const data = join(mkdtempSync(join(tmpdir(), 'vmtui-errlog-')), 'service.sqlite');
    await run('1 + 1', data);
    expect(existsSync(errorLogOf(data))).toBe(false);
  });
});
