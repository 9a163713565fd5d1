import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The vmtui:dev image (`npm run build:image`) started as a test suite starts
 * it, with Testcontainers, and a client run against it. The containers share
 * the host's network (no bridge network here). No daemon is no reason to
 * pass: the test says why it cannot run, and fails.
 */
// Testcontainers' reaper runs from an image of its own, which cannot be pulled here; each test stops what it started.
process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
const { GenericContainer, Wait } = await import('testcontainers');
type Started = Awaited<ReturnType<InstanceType<typeof GenericContainer>['start']>>;

const TOKEN = 'container-test-owner-token-0123456789abcdef';
const started: Started[] = [];

function dockerProblem(): string | undefined {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8' });
  if (info.error) return `no docker client (${info.error.message}): install Debian's docker.io`;
  if (info.status !== 0) return `the Docker daemon does not answer (${(info.stderr || info.stdout).trim().split('\n').pop()}): start dockerd (.ci/run does)`;
  return undefined;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

beforeAll(() => {
  const problem = dockerProblem();
  if (problem) throw new Error(`The container test cannot run: ${problem}`);
  execFileSync(process.execPath, ['scripts/build-image.mjs'], { stdio: 'inherit' });
}, 300_000);
afterAll(async () => {
  for (const c of started.splice(0)) await c.stop({ timeout: 2000 }).catch(() => undefined);
});

describe('the vmtui:dev image', { timeout: 90_000 }, () => {
  it('is built FROM scratch: Node.js, its libraries and the bundles, no shell, no base image', () => {
    const history = execFileSync('docker', ['image', 'history', 'vmtui:dev', '--format', '{{.CreatedBy}}'], { encoding: 'utf8' });
    expect(history).not.toMatch(/FROM (?!scratch)/);
    const inspect = JSON.parse(execFileSync('docker', ['image', 'inspect', 'vmtui:dev'], { encoding: 'utf8' })) as { Config: { Entrypoint: string[]; Cmd: string[]; User: string } }[];
    expect(inspect[0]!.Config).toMatchObject({ Entrypoint: ['/usr/local/bin/node', '/app/container.js'], Cmd: ['serve', '--ready-json'], User: '65534:65534' });
    // No shell to run: an image of exactly what serve needs.
    expect(spawnSync('docker', ['run', '--rm', '--entrypoint', '/bin/sh', 'vmtui:dev', '-c', 'true']).status).not.toBe(0);
  });

  it('serves on 0.0.0.0:4000 by default, healthy once /__control/health answers, with the ready JSON line on its log', async () => {
    const c = await new GenericContainer('vmtui:dev').withNetworkMode('host').withWaitStrategy(Wait.forHealthCheck()).withStartupTimeout(60_000).start();
    started.push(c);
    expect(await (await fetch('http://127.0.0.1:4000/__control/health')).json()).toEqual({ ok: true });
    // The log holds stderr too (the warning that other machines can reach it): the ready line is the JSON one.
    const readyLine = await new Promise<string>((resolve) => {
      let text = '';
      void c.logs().then((stream) => {
        stream.on('data', (d: Buffer | string) => {
          text += d.toString();
          const line = text.split('\n').find((l) => /^\{.*\}$/.test(l.trim()));
          if (line) resolve(line.trim());
        });
      });
    });
    const ready = JSON.parse(readyLine) as { base_url: string; token: string };
    expect(ready.base_url).toBe('http://127.0.0.1:4000/v4');
    const res = await fetch(`${ready.base_url}/profile`, { headers: { authorization: `Bearer ${ready.token}` } });
    expect(res.status).toBe(200);
    await c.stop({ timeout: 2000 });
    started.splice(started.indexOf(c), 1);
  });

  it('takes the arguments after the image name instead of the default ones, and a client works against it', async () => {
    const port = await freePort();
    const c = await new GenericContainer('vmtui:dev')
      .withNetworkMode('host')
      .withCommand(['serve', '--port', String(port), '--seed', 'demo', '--token', TOKEN, '--speed', 'instant'])
      .withWaitStrategy(Wait.forHealthCheck())
      .withStartupTimeout(60_000)
      .start();
    started.push(c);
    const base = `http://127.0.0.1:${port}/v4`;
    const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
    const list = (await (await fetch(`${base}/vm/instances`, { headers })).json()) as { results: number; data: { label: string }[] };
    expect(list.data.map((i) => i.label)).toContain('web-1');
    const made = await fetch(`${base}/vm/instances`, { method: 'POST', headers, body: JSON.stringify({ region: 'us-east', type: 'g6-nanode-1', label: 'from-a-container-test' }) });
    expect(made.status).toBe(200);
    const after = (await (await fetch(`${base}/vm/instances`, { headers })).json()) as { results: number };
    expect(after.results).toBe(list.results + 1);
    const refused = await fetch(`${base}/vm/instances`, { headers: { authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
  });
});
