import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config/config.js';
import type { RunningService } from '../../src/server/service.js';
import { startTestService } from '../helpers/service.js';

/**
 * Every code block of docs/ is something a reader pastes, so each is held to
 * what runs. The comment on the line above a block says how:
 *   <!-- example: examples/F -->  the block is the whole of file F, which test/e2e/consumer.test.ts runs;
 *   <!-- excerpt: examples/F -->  the block is a run of F's lines (as indented there or not);
 *   <!-- config -->               a config.json the app's own reader takes without a problem;
 *   <!-- answer -->               what the service answers, shown: valid JSON;
 *   <!-- not run: why -->         a command a test cannot run here (it installs, or runs in the foreground).
 * A shell block with none of them is run here, against a service on a port of its own, and every
 * request in it must succeed. install.md is the packaging page's, checked by the package tests.
 */

const DOCS = join(process.cwd(), 'docs');
const TOKEN = 'T';

interface Block {
  where: string;
  lang: string;
  text: string;
  marker: string | undefined;
}

function blocks(): Block[] {
  return readdirSync(DOCS)
    .filter((f) => f.endsWith('.md') && f !== 'install.md')
    .flatMap((file) => {
      const lines = readFileSync(join(DOCS, file), 'utf8').split('\n');
      const found: Block[] = [];
      for (let i = 0; i < lines.length; i++) {
        const open = /^```(\w*)$/.exec(lines[i]!);
        if (!open) continue;
        const end = lines.indexOf('```', i + 1);
        const marker = /^<!-- (.*) -->$/.exec(lines[i - 1] ?? '')?.[1];
        found.push({ where: `${file}:${i + 1}`, lang: open[1]!, text: lines.slice(i + 1, end).join('\n') + '\n', marker });
        i = end;
      }
      return found;
    });
}

const ALL = blocks();
const kind = (b: Block) => b.marker?.replace(/:.*$/, '') ?? (b.lang === 'sh' ? 'run' : 'unmarked');
const fileOf = (b: Block) => readFileSync(join(DOCS, b.marker!.replace(/^[a-z]+: /, '')), 'utf8');
const indentOf = (line: string) => /^ */.exec(line)![0].length;

/** Whether the block's lines stand, in a row, in the file, all indented alike there. */
function excerptOf(file: string, block: string): boolean {
  const want = block.trimEnd().split('\n');
  const lines = file.split('\n');
  return lines.some((_, at) => {
    const pad = indentOf(lines[at]!) - indentOf(want[0]!);
    return pad >= 0 && want.every((w, k) => lines[at + k] === (w === '' ? '' : ' '.repeat(pad) + w));
  });
}

let svc: RunningService;
let folder: string;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo', token: TOKEN });
  folder = mkdtempSync(join(tmpdir(), 'vmtui-docs-'));
});
afterAll(async () => {
  await svc.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('the code blocks of docs/', () => {
  it('each says how it is checked', () => {
    expect(ALL.length).toBeGreaterThan(10);
    expect(ALL.filter((b) => kind(b) === 'unmarked').map((b) => b.where)).toEqual([]);
    expect(ALL.filter((b) => !['example', 'excerpt', 'config', 'answer', 'not run', 'run'].includes(kind(b))).map((b) => `${b.where}: ${b.marker}`)).toEqual([]);
  });

  it.each(ALL.filter((b) => kind(b) === 'example').map((b) => [b.where, b] as const))('%s is its example file, whole', (_, b) => {
    expect(b.text).toBe(fileOf(b));
  });

  it.each(ALL.filter((b) => kind(b) === 'excerpt').map((b) => [b.where, b] as const))('%s stands as written in its example file', (_, b) => {
    expect(excerptOf(fileOf(b), b.text)).toBe(true);
  });

  it.each(ALL.filter((b) => kind(b) === 'config').map((b) => [b.where, b] as const))('%s is a config file the app reads without a problem', (_, b) => {
    const file = join(folder, `${b.where.replace(/\W/g, '-')}.json`);
    writeFileSync(file, b.text);
    expect(readConfig(file).problems).toEqual([]);
  });

  it.each(ALL.filter((b) => kind(b) === 'answer').map((b) => [b.where, b] as const))('%s is JSON', (_, b) => {
    expect(() => JSON.parse(b.text)).not.toThrow();
  });

  it.each(ALL.filter((b) => kind(b) === 'run').map((b) => [b.where, b] as const))('%s runs as written against a service, every request answered 2xx', async (_, b) => {
    // The page's address and placeholders, this test's service; curl fails on an error status and reports it.
    const script = `T=${TOKEN}\n${b.text.replaceAll('http://127.0.0.1:8484', svc.origin).replaceAll('<owner token>', TOKEN)}`;
    // Not spawnSync: the service answers from this process.
    const ran = await new Promise<{ status: number | null; out: string }>((resolve) => {
      const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', `curl() { command curl -sS --fail-with-body --max-time 10 "$@"; }\n${script}`], { cwd: folder });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.once('close', (status) => resolve({ status, out }));
    });
    expect(ran.status, ran.out).toBe(0);
  });
});
