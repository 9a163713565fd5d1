import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { CTRL_D, CTRL_S, DOWN, ENTER, sendInputAndWait, waitForContent } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_U, RIGHT, TEST_KEY, TEST_KEY_FINGERPRINT, jump, plain, renderOn } from './harness.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

const labels = async () => ((await call(svc, 'GET', '/profile/sshkeys')).body.data as { label: string }[]).map((k) => k.label);

describe(':sshkeys', () => {
  it('lists keys with their fingerprints; adds one through the form, checked as typed', async () => {
    const r = renderOn(svc, { cols: 110 });
    const frame = await jump(r, 'ssh', 'ci deploy key');
    expect(frame).toMatch(/owner laptop\s+ssh-ed25519 …HWjdCmTn18\s+SHA256:/);

    await sendInputAndWait(r.stdin, 'c', r.lastFrame, 'Add an SSH key');
    r.stdin.write('build box');
    r.stdin.write(DOWN);
    await sendInputAndWait(r.stdin, 'ssh-foo AAAA', r.lastFrame, /Public key \*.*✗ not an SSH public key/);
    // Submitting with an error sends nothing.
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /Public key \*.*✗ not an SSH public key/);
    r.stdin.write(CTRL_U);
    await sendInputAndWait(r.stdin, TEST_KEY, r.lastFrame, (f) => !f.includes('✗'));
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, `Added SSH key build box (${TEST_KEY_FINGERPRINT})`);
    await waitForContent(r.lastFrame, /build box\s+ssh-ed25519 …iA\+j78AtZs\s+SHA256:gvyigYROed1H/);
    expect(await labels()).toEqual(['owner laptop', 'ci deploy key', 'build box']);
    r.unmount();
  });

  it('renames a key; delete asks first, says deployed copies stay, and Cancel is the default', async () => {
    await call(svc, 'POST', '/profile/sshkeys', { body: { label: 'old name', ssh_key: TEST_KEY } });
    const r = renderOn(svc, { cols: 110 });
    await jump(r, 'sshkeys', 'old name');
    await sendInputAndWait(r.stdin, 'G', r.lastFrame, /› old name/);

    await sendInputAndWait(r.stdin, 'e', r.lastFrame, 'Edit old name');
    r.stdin.write(CTRL_U);
    r.stdin.write('new name');
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /› new name/);
    expect(await labels()).toContain('new name');

    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Remove new name');
    expect(plain(r.lastFrame())).toContain('Only the profile forgets it');
    expect(plain(r.lastFrame())).toContain('already deployed to keep it');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /› new name/);
    expect(await labels()).toContain('new name');

    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Remove new name');
    r.stdin.write(RIGHT);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => f.includes('Remove new name: done') && !/^[ ›] new name/m.test(f));
    expect(await labels()).not.toContain('new name');
    r.unmount();
  });
});
