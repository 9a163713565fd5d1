import { authenticator } from 'otplib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { CTRL_S, ENTER, ESC, sendInputAndWait, waitForContent } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';
import { CTRL_U, RIGHT, jump, renderOn } from './harness.js';

vi.stubEnv('TMUX', '');

let svc: RunningService;

/** The lines of the frame that are the QR code: half blocks and spaces only, from the first such line on. */
const qrCode = (frame: string) => {
  const isQr = (l: string) => /^[█▀▄ ]{30,}$/.test(l);
  const lines = frame.split('\n');
  const top = lines.findIndex(isQr);
  if (top < 0) return [];
  const end = lines.findIndex((l, i) => i > top && !isQr(l));
  return lines.slice(top, end < 0 ? undefined : end);
};
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

const tfaOn = async () => (await call(svc, 'GET', '/profile')).body.two_factor_auth as boolean;

/** A six-digit code that is neither the current nor the previous one (both of which the service accepts). */
function wrongCode(secret: string): string {
  const valid = new Set([authenticator.generate(secret), authenticator.clone({ epoch: Date.now() - 30_000 }).generate(secret)]);
  let n = 0;
  while (valid.has(String(n).padStart(6, '0'))) n++;
  return String(n).padStart(6, '0');
}

describe(':2fa', () => {
  it('enables two-factor: the secret and its URI once, a wrong code refused beside the field, the right one gives the scratch code once', async () => {
    const r = renderOn(svc, { cols: 100, rows: 30 });
    await jump(r, 'tfa', /Two-factor authentication\s+OFF/);
    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'Enable two-factor authentication');
    const shown = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /Secret\s+[A-Z2-7]{16,}/);
    const secret = /Secret\s+([A-Z2-7]{16,})/.exec(shown)![1]!;
    expect(shown).toContain('shown only once');
    expect(shown).toContain(`otpauth://totp/vmtui:demo-owner?secret=${secret}&issuer=vmtui`);
    expect(shown).toMatch(/↓ \d+ more \(j\)/);
    // The URI as a QR code with its quiet zone; further down, the deadline.
    const end = await sendInputAndWait(r.stdin, 'G', r.lastFrame, /before \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(end).toMatch(/↑ \d+ more/);
    const qr = qrCode(end);
    expect(qr.length).toBe(19);
    expect(qr.every((l) => l.length === qr[0]!.length)).toBe(true);
    expect(qr.at(-1)).toMatch(/^▀+$/);
    await sendInputAndWait(r.stdin, 'Y', r.lastFrame, 'Copied the two-factor secret (OSC 52)');
    expect(r.frames.join('')).toContain(`\x1b]52;c;${Buffer.from(secret).toString('base64')}\x07`);
    expect(await tfaOn()).toBe(false);

    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Two-factor code *');
    expect(r.lastFrame()).not.toContain(secret);
    await sendInputAndWait(r.stdin, '12a', r.lastFrame, /Two-factor code \*.*✗ must be the 6-digit code/);
    expect(r.lastFrame()).toMatch(/^Two-factor code must be the 6-digit code from your authenticator app$/m);
    r.stdin.write(CTRL_U);
    await sendInputAndWait(r.stdin, wrongCode(secret), r.lastFrame, (f) => !f.includes('✗'));
    await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, /Two-factor code \*.*✗ is not the current code/);
    expect(r.lastFrame()).toMatch(/^Two-factor code is not the current code for the two-factor secret$/m);
    expect(await tfaOn()).toBe(false);

    r.stdin.write(CTRL_U);
    await sendInputAndWait(r.stdin, authenticator.generate(secret), r.lastFrame, (f) => !f.includes('✗'));
    const scratch = await sendInputAndWait(r.stdin, CTRL_S, r.lastFrame, 'Two-factor scratch code');
    expect(scratch).toContain('shown only once');
    expect(scratch).toMatch(/^[A-Z2-7]{20}$/m);
    expect(await tfaOn()).toBe(true);

    const after = await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /Two-factor authentication\s+ON/);
    expect(after).not.toMatch(/[A-Z2-7]{20}/);
    r.unmount();
  });

  it('disables two-factor after a confirm whose default is Cancel', async () => {
    // Whatever the test before left: off, then on through the API.
    await call(svc, 'POST', '/profile/tfa-disable');
    const { body } = await call(svc, 'POST', '/profile/tfa-enable');
    expect((await call(svc, 'POST', '/profile/tfa-enable-confirm', { body: { tfa_code: authenticator.generate(body.secret) } })).status).toBe(200);
    expect(await tfaOn()).toBe(true);
    const r = renderOn(svc, { cols: 100 });
    await jump(r, '2fa', /Two-factor authentication\s+ON/);
    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'Disable two-factor authentication');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Turn two-factor authentication off?');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /Two-factor authentication\s+ON/);
    expect(await tfaOn()).toBe(true);

    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'Disable two-factor authentication');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, 'Turn two-factor authentication off?');
    r.stdin.write(RIGHT);
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /Two-factor authentication\s+OFF/);
    expect(r.lastFrame()).toContain('Two-factor authentication is off');
    expect(await tfaOn()).toBe(false);
    r.unmount();
  });

  it('at 80×24 the whole QR code and the keys are on screen together once scrolled to it', async () => {
    const r = renderOn(svc, { cols: 80, rows: 24 });
    await jump(r, 'two-factor', /Two-factor authentication\s+OFF/);
    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'Enable two-factor authentication');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /Secret\s+[A-Z2-7]{16,}/);
    let frame = r.lastFrame();
    // Down a line at a time until the code's last line shows.
    for (let i = 0; i < 20 && !/^▀+$/m.test(frame); i++) {
      const before = frame;
      frame = await sendInputAndWait(r.stdin, 'j', r.lastFrame, (f) => f !== before);
    }
    const qr = qrCode(frame);
    // A version 4 code, 33 modules and a quiet zone of one each side: 18 lines of two modules.
    expect(qr.length).toBe(18);
    expect(frame.split('\n').length).toBeLessThanOrEqual(23);
    expect(frame).toMatch(/^Y copy  Enter added it, a code next  Esc cancel  ↑ \d+ more · ↓ \d+ more \(j\)$/m);
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, 'stays off: the secret was not confirmed');
    r.unmount();
  });

  it('Esc at the secret leaves two-factor off', async () => {
    const r = renderOn(svc, { cols: 100 });
    await jump(r, 'two-factor', /Two-factor authentication\s+OFF/);
    await sendInputAndWait(r.stdin, 'a', r.lastFrame, 'Enable two-factor authentication');
    await sendInputAndWait(r.stdin, ENTER, r.lastFrame, /Secret\s+[A-Z2-7]{16,}/);
    await sendInputAndWait(r.stdin, ESC, r.lastFrame, 'stays off: the secret was not confirmed');
    await waitForContent(r.lastFrame, /Two-factor authentication\s+OFF/);
    expect(await tfaOn()).toBe(false);
    r.unmount();
  });
});
