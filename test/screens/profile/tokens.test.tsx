import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, sendInputAndWait } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { RIGHT, jump, plain, renderOn } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

const TOKEN = /\b[0-9a-f]{64}\b/;

describe(':tokens', () => {
  it('marks the token this session uses; creates one from scope choices and shows its value once', async () => {
    const r = renderOn(svc, { cols: 110 });
    const frame = await jump(r, 'pat', 'monitoring-readonly');
    expect(frame).toMatch(/\[this\] serve --token \(owner\)\s+\* \(all scopes\)\s+test-owner-token…\s+\d{4}-\d\d-\d\d\s+never/);

    await sendInputAndWait(r.stdin, 'c', r.lastFrame, 'New personal access token');
    r.stdin.write('ci-test');
    // Nothing chosen: the Token model's scope rule, beside the scope choices.
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /All scopes \(\*\).*✗ scopes must name at least one scope/);
    // The failed submit put the focus on the first field in error; the groups follow it.
    expect(r.lastFrame()).toMatch(/› All scopes/);
    r.stdin.write(DOWN);
    await sendInputAndWait(r.stdin, RIGHT, r.lastFrame, /› account\s+◂ read_only ▸ 2\/3/);
    const reveal = await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, 'New token: ci-test');
    expect(reveal).toContain('shown only once');
    const value = TOKEN.exec(reveal)![0];
    // The value works, with exactly the scope chosen.
    const tokens = await call(svc, 'GET', '/profile/tokens', { token: value });
    expect(tokens.status).toBe(200);
    expect(tokens.body.data.find((t: { label: string }) => t.label === 'ci-test').scopes).toBe('account:read_only');
    expect((await call(svc, 'GET', '/vm/instances', { token: value })).status).toBe(403);

    const list = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /ci-test\s+account:read_only/);
    expect(list).toContain(`${value.slice(0, 16)}…`);
    expect(list).not.toContain(value);
    expect(list).not.toContain('[this] ci-test');
    r.unmount();
  });

  it('revokes after a confirm that says it stops working at once; the token then gets 401', async () => {
    const made = await call(svc, 'POST', '/profile/tokens', { body: { label: 'to-revoke', scopes: 'vms:read_only' } });
    const value = made.body.token as string;
    expect((await call(svc, 'GET', '/profile', { token: value })).status).toBe(200);

    const r = renderOn(svc, { cols: 110 });
    await jump(r, 'tokens', 'to-revoke');
    await sendInputAndWait(r.stdin, 'G', r.lastFrame, /› to-revoke/);
    const confirm = await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Revoke to-revoke');
    expect(plain(confirm)).toContain('It stops working at once');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /› to-revoke/);
    expect((await call(svc, 'GET', '/profile', { token: value })).status).toBe(200);

    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Revoke to-revoke');
    r.stdin.write(RIGHT);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => f.includes('Revoke to-revoke: done') && !/^[ ›] to-revoke/m.test(f));
    expect((await call(svc, 'GET', '/profile', { token: value })).status).toBe(401);
    r.unmount();
  });

  it('warns harder before revoking the token this session uses', async () => {
    const r = renderOn(svc, { cols: 110 });
    await jump(r, 'tokens', '[this] serve --token');
    while (!/› \[this\]/.test(r.lastFrame())) await sendInputAndWait(r.stdin, 'j', r.lastFrame, () => true);
    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'THIS SESSION uses');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /› \[this\]/);
    expect((await call(svc, 'GET', '/profile')).status).toBe(200);
    r.unmount();
  });
});
