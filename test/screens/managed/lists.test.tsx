import { describe, expect, it } from 'vitest';
import { BACKSPACE, CTRL_D, CTRL_S, ENTER, TAB, sendInputAndWait, waitForContent } from '../../helpers/ink.js';
import { call } from '../../helpers/service.js';
import { demoAccount, openArea } from './harness.js';

const svc = await demoAccount();

const RIGHT = '\x1b[C';

/** Types into the focused field, then moves on with Tab. */
async function fill(r: { stdin: { write(d: string): void }; lastFrame: () => string }, text: string) {
  r.stdin.write(text);
  await waitForContent(r.lastFrame, text.replace(/./g, (c) => (c === ' ' ? ' ' : c)).slice(-8));
  r.stdin.write(TAB);
}

describe(':contacts', () => {
  it('lists contacts; creates one with the email checked as you type; deletes after a confirm', async () => {
    const r = await openArea(svc, 'contacts', '5 items');
    expect(r.lastFrame()).toMatch(/Name +Email +Phone \(primary · secondary\) +Group/);
    expect(r.lastFrame()).toMatch(/Maria Alvarez +maria\.alvarez@example\.com +\+1 \(215\) 555-0142 · \+1 215 555 0199 +on-call/);

    await sendInputAndWait(r.stdin, 'c', r.lastFrame, 'New: Contacts');
    await fill(r, 'Night Owl');
    await sendInputAndWait(r.stdin, 'owl@', r.lastFrame, /Email +owl@ +✗/);
    await sendInputAndWait(r.stdin, 'example.com', r.lastFrame, (f) => /Email +owl@example\.com *\n/.test(f));
    r.stdin.write(TAB);
    await fill(r, '+1 555 0100');
    await sendInputAndWait(r.stdin, 'x1', r.lastFrame, /Secondary phone +x1 +✗ phone numbers may contain only/);
    r.stdin.write(BACKSPACE);
    r.stdin.write(BACKSPACE);
    await waitForContent(r.lastFrame, /› Secondary phone *\n +Group/);
    r.stdin.write(TAB);
    await fill(r, 'on-call');
    const made = await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /Night Owl +owl@example\.com +\+1 555 0100 +on-call/);
    expect(made).toContain('6 items');
    expect(made).toContain('Created contact Night Owl');

    while (!/^› Night Owl/m.test(r.lastFrame())) await sendInputAndWait(r.stdin, 'j', r.lastFrame, () => true);
    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Delete the contact Night Owl? Issues will no longer be reported to');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, '6 items');
    await sendInputAndWait(r.stdin, CTRL_D, r.lastFrame, 'Delete Night Owl');
    r.stdin.write(RIGHT);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, (f) => f.includes('5 items') && !/^[ ›] Night Owl/m.test(f));
  });
});

describe(':credentials', () => {
  it('stores a credential with its password masked, updates the password, and never shows secrets', async () => {
    const r = await openArea(svc, 'credentials', '4 items');
    expect(r.lastFrame()).toMatch(/prod-db root +12d ago \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\)/);
    expect(r.lastFrame()).toMatch(/web\.deploy +never/);

    await sendInputAndWait(r.stdin, 'c', r.lastFrame, 'New: Credentials');
    await fill(r, 'grafana admin');
    await fill(r, 'admin');
    await sendInputAndWait(r.stdin, 'hunter22', r.lastFrame, /Password \* +••••••••/);
    expect(r.lastFrame()).not.toContain('hunter22');
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /grafana admin +never/);

    while (!/^› +\d+ +grafana admin/m.test(r.lastFrame())) await sendInputAndWait(r.stdin, 'j', r.lastFrame, () => true);
    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'p Update password');
    await sendInputAndWait(r.stdin, 'p', r.lastFrame, 'Update the stored password');
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /Password is required/);
    r.stdin.write('s3cret-2');
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, 'Password of grafana admin updated');

    const detail = await sendInputAndWait(r.stdin, 'd', r.lastFrame, 'Username and password');
    expect(detail).toContain('write-only: the API never returns them');
    expect(detail).not.toMatch(/hunter22|s3cret-2/);
  });
});

describe(':services', () => {
  it('lists services with their status; a private address needs a region (the model rule), checked before sending', async () => {
    const r = await openArea(svc, 'services', '8 items');
    expect(r.lastFrame()).toMatch(/api-gateway +✗ PROBLEM +url +https:\/\/api\.example\.com\/v1\/status +10s +on-call/);
    expect(r.lastFrame()).toMatch(/mail-relay +○ disabled +tcp +mail\.example\.com:587/);

    await sendInputAndWait(r.stdin, 'c', r.lastFrame, 'New: Services');
    await fill(r, 'queue-broker');
    await sendInputAndWait(r.stdin, RIGHT, r.lastFrame, /Type \* +◂ url ▸/);
    await sendInputAndWait(r.stdin, RIGHT, r.lastFrame, /Type \* +◂ tcp ▸/);
    r.stdin.write(TAB);
    await fill(r, '192.168.128.20:5672');
    await fill(r, '10');
    const refused = await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /Region is required when the address is a private IP/);
    expect(refused).toContain('New: Services');
    expect((await call(svc, 'GET', '/managed/services')).body.results).toBe(8);
  });

  it('disables and enables monitoring from the list, each asked first', async () => {
    const r = await openArea(svc, 'services', '8 items');
    while (!/^› shop frontend/m.test(r.lastFrame())) await sendInputAndWait(r.stdin, 'j', r.lastFrame, () => true);
    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'm Disable monitoring');
    await sendInputAndWait(r.stdin, 'm', r.lastFrame, 'Stop monitoring "shop frontend"?');
    r.stdin.write(TAB);
    await waitForContent(r.lastFrame, 'Disable monitoring ]');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /› shop frontend +○ disabled/);
    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'm Enable monitoring');
    await sendInputAndWait(r.stdin, 'm', r.lastFrame, 'Start monitoring "shop frontend" again?');
    r.stdin.write(TAB);
    await waitForContent(r.lastFrame, 'Enable monitoring ]');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /› shop frontend +(◌ pending|● ok)/);
  });
});

describe(':vm-settings', () => {
  it("lists each instance's support SSH access and edits it", async () => {
    const r = await openArea(svc, 'vm-settings', '21 items');
    expect(r.lastFrame()).toMatch(/web-1 +41001 +yes +root +45\.79\.0\.2 +22/);
    await sendInputAndWait(r.stdin, 'e', r.lastFrame, 'Edit web-1');
    await sendInputAndWait(r.stdin, ' ', r.lastFrame, /Support may log in +\[ \] no/);
    const saved = await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /web-1 +41001 +no +root/);
    expect(saved).toContain('SSH access of web-1: support may not log in');
    expect((await call(svc, 'GET', '/managed/vm-settings/41001')).body.ssh.access).toBe(false);
  });
});
