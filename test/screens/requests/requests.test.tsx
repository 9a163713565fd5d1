import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RequestRecord } from '../../../src/api/request-log.js';
import requests from '../../../src/screens/requests/index.js';
import { curlOf, detailLines, filterCalls, outcome, outcomeColor } from '../../../src/screens/requests/calls.js';
import type { RunningService } from '../../../src/server/service.js';
import { coreScreens } from '../../app/fixtures.js';
import { ENTER, ESC, jumpTo, press, renderApp, wait } from '../../helpers/ink.js';
import { OWNER_TOKEN, call, startTestService } from '../../helpers/service.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc.close());

const screens = [...coreScreens, ...requests];
const selectedLine = (frame: string) => frame.split('\n').find((l) => l.startsWith('› ')) ?? '';

async function openPanel(rows = 24, cols = 100) {
  const r = renderApp({ screens, svc, rows, cols });
  await wait(r, 'Regions');
  await jumpTo(r, 'net', /› \d\d:\d\d:\d\d +GET/);
  return r;
}

describe(':requests, the network panel', () => {
  it('lists the calls newest first with status and duration, and new calls appear live without moving the selection', async () => {
    const r = await openPanel();
    let frame = await wait(r, /GET +\/profile +200 +(\d+ ms|\d+\.\d s)/);
    expect(frame).toMatch(/Time +Method +Path +Status +Took/);

    // The newest stays selected until the user moves (the app's own polling may add calls meanwhile: the top row, whichever it is).
    void r.ctx.client.get('/regions/us-east');
    frame = await wait(r, /GET +\/regions\/us-east +200/);
    const firstRow = (f: string) => f.split('\n')[f.split('\n').findIndex((l) => /Time +Method +Path/.test(l)) + 1] ?? '';
    expect(selectedLine(frame)).toBe(firstRow(frame));

    // Once moved, the selection stays on its call as new ones land above it.
    await press(r, 'j', (f) => selectedLine(f) !== firstRow(f));
    const callOf = (line: string) => /^› (\S+ +\S+ +\S+)/.exec(line)?.[1];
    const chosen = callOf(selectedLine(r.lastFrame()))!;
    void r.ctx.client.get('/regions/ap-northeast');
    frame = await wait(r, /GET +\/regions\/ap-northeast +200/);
    expect(callOf(selectedLine(frame))).toBe(chosen);
    expect(frame.indexOf('/regions/ap-northeast')).toBeLessThan(frame.indexOf(chosen));
  });

  it("says the narrowest token this session could have used, a read_write standing for its read_only", async () => {
    const r = await openPanel();
    await r.ctx.client.get('/vm/instances');
    let frame = await wait(r, /Narrowest token for this session: .*vms:read_only/);
    // The start reads the profile (no scope) and the lists the home view counts; the token's scopes came in its answer's header, so no token list (account:read_only) was read.
    expect(frame).toMatch(/^Narrowest token for this session: vms:read_only *$/m);
    await r.ctx.client.post('/tags', { label: 'least-privilege' });
    frame = await wait(r, /Narrowest token for this session: account:read_write vms:read_only *$/m);
    expect(frame.split('\n').length).toBeLessThanOrEqual(23);
  });

  it('shows a call pending until its answer comes, then its status', async () => {
    const r = await openPanel();
    await call(svc, 'POST', '/__control/faults', { body: { method: 'GET', path: '/v4/regions/us-west', action: 'latency', latency_ms: 3000, count: 1 } });
    const slow = r.ctx.client.get('/regions/us-west');
    await wait(r, /GET +\/regions\/us-west +pending +…/);
    await slow;
    await wait(r, /GET +\/regions\/us-west +200 +\d+\.\d s/);
  });

  it('filters with /; Enter shows the whole call with the token masked; Y copies it as curl without the token', async () => {
    const r = await openPanel();
    await r.ctx.client.get('/regions/nowhere').catch(() => {});
    await press(r, '/', /Enter keep/);
    let frame = await press(r, '404', /\b1 of \d+/);
    expect(frame).toMatch(/GET +\/regions\/nowhere +404/);
    await press(r, ENTER, /\/404 /);
    frame = await press(r, ENTER, /Request headers/);
    expect(frame).toContain(`GET ${svc.baseUrl}/regions/nowhere`);
    expect(frame).toMatch(/authorization: Bearer test…/);
    expect(frame).not.toContain(OWNER_TOKEN);
    // The answer, pretty: scroll to it.
    // The frame of G itself: the answer's headers (X-OAuth-Scopes among them) may fill the first.
    frame = await press(r, 'G', /^ *"errors": \[/m);
    expect(frame).toMatch(/Status: 404|"reason"/);

    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      frame = await press(r, 'Y', /Copied GET \/regions\/nowhere as a curl line/);
      const osc = out.mock.calls.map(([d]) => String(d)).find((d) => d.startsWith('\x1b]52;c;'))!;
      const line = Buffer.from(osc.slice('\x1b]52;c;'.length, -1), 'base64').toString();
      expect(line).toBe(`curl -sS -H "Authorization: Bearer $VM_TOKEN" ${svc.baseUrl}/regions/nowhere`);
    } finally {
      out.mockRestore();
    }
    // Esc: back to the list, filter kept; Esc again clears it.
    await press(r, ESC, /\/404 +1 call|404/);
    frame = await wait(r, /Time +Method/);
    await press(r, ESC, (f) => !f.includes('/404'));
  });

  it('masks a secret sent in a body, in the details and in the curl line', async () => {
    const r = await openPanel(40, 120);
    await r.ctx.client.post('/vm/instances', { region: 'us-east', type: 'vm-standard-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42!', label: 'masked-one' }).catch(() => {});
    await press(r, '/', /Enter keep/);
    await press(r, 'POST instances', /\b1 of \d+/);
    await press(r, ENTER, (f) => /POST +\/vm\/instances/.test(selectedLine(f)) && !f.includes('Enter keep'));
    const frame = await press(r, ENTER, /Request body/);
    expect(frame).toMatch(/"root_pass": "\$VM_ROOT_PASS"/);
    expect(frame).toMatch(/Masked: \$VM_ROOT_PASS/);
    expect(frame).not.toContain('Correct-Horse');
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await press(r, 'Y', /set \$VM_TOKEN and \$VM_ROOT_PASS first/);
      const osc = out.mock.calls.map(([d]) => String(d)).find((d) => d.startsWith('\x1b]52;c;'))!;
      const line = Buffer.from(osc.slice('\x1b]52;c;'.length, -1), 'base64').toString();
      expect(line).toContain(`"root_pass":"'"$VM_ROOT_PASS"'"`);
      expect(line).not.toContain('Correct-Horse');
    } finally {
      out.mockRestore();
    }
  });
});

describe('status colours', () => {
  const rec = (patch: Partial<RequestRecord>) => ({ id: 1, method: 'GET', url: 'http://h/v4/x', path: '/x', root: 'base', attempt: 1, requestHeaders: {}, variables: [], requestCut: false, responseCut: false, started: 0, ...patch }) as RequestRecord;
  it('2xx green, 4xx yellow, 5xx, no answer and an unreadable answer red, pending grey', () => {
    expect([200, 204, 404, 429, 500, 503].map((status) => outcomeColor(rec({ status })))).toEqual(['green', 'green', 'yellow', 'yellow', 'red', 'red']);
    expect(outcomeColor(rec({ status: 200, problem: 'not JSON' }))).toBe('red');
    expect([outcomeColor(rec({})), outcome(rec({}))]).toEqual(['gray', 'pending']);
    expect([outcomeColor(rec({ failure: 'Cannot reach h' })), outcome(rec({ failure: 'Cannot reach h' }))]).toEqual(['red', 'failed']);
    expect(outcome(rec({ failure: 'GET /x timed out after 15 s' }))).toBe('timeout');
  });
});

describe('a call in the panel', () => {
  const rec = (patch: Partial<RequestRecord>) => ({ id: 1, method: 'GET', url: 'http://h/v4/x', path: '/x', root: 'base', attempt: 1, requestHeaders: {}, variables: [], requestCut: false, responseCut: false, started: 0, ...patch }) as RequestRecord;

  it('is not copied when its body was cut: the line would send something else', () => {
    const cut = curlOf(rec({ method: 'POST', requestBody: '{"a":"', requestCut: true }));
    expect(cut).toEqual({ refused: expect.stringMatching(/over 64 KiB/) });
  });

  it('filters by every word, over method, path, status and outcome', () => {
    const calls = [rec({ id: 1, path: '/vm/instances', status: 200 }), rec({ id: 2, method: 'POST', path: '/vm/instances', status: 400 }), rec({ id: 3, path: '/regions', failure: 'Cannot reach h' })];
    expect(filterCalls(calls, 'post instances').map((r) => r.id)).toEqual([2]);
    expect(filterCalls(calls, 'failed').map((r) => r.id)).toEqual([3]);
    expect(filterCalls(calls, '').length).toBe(3);
  });

  it('details say a retry is one, a failure why, and keep every line of a long body within the width', () => {
    const long = JSON.stringify({ description: 'x'.repeat(300) });
    const lines = detailLines(rec({ attempt: 2, status: 200, responseBody: long, responseHeaders: { 'content-type': 'application/json' } }), 60);
    expect(lines.map((l) => l.text).join('')).toMatch(/attempt 2 \(a retry\)/);
    expect(lines.every((l) => l.text.length <= 60)).toBe(true);
    expect(lines.map((l) => l.text).join('')).toContain('x'.repeat(300));
    const failed = detailLines(rec({ failure: 'GET /x timed out after 15 s', duration: 15000 }), 80);
    expect(failed.at(-1)).toMatchObject({ text: 'GET /x timed out after 15 s', color: 'red' });
  });
});
