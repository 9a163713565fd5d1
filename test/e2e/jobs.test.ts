import { afterEach, describe, expect, it } from 'vitest';
import { KEYS } from '../helpers/pty.js';
import { call } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

/**
 * A boot followed from the key press to its end in the built app, in a real
 * terminal: the header counts it while it is under way, `:jobs` shows its
 * progress, and the message line says how it ended, in place of the raw event.
 */

// Realistic lifecycles on a stopped clock: the boot ends when the test moves time on.
const built = useBuiltApp({ speed: 'realistic' });

afterEach(() => built.killAll());

describe('a job in a terminal', { timeout: 120_000 }, () => {
  it('boot → under way in the header and :jobs → "Boot of … finished in 5 s"', async () => {
    const svc = built.svc;
    expect((await call(svc, 'POST', '/__control/clock', { body: { frozen: true } })).status).toBe(200);
    const made = await call(svc, 'POST', '/vm/instances', { body: { label: 'jobbox', region: 'us-east', type: 'g6-nanode-1', image: 'vm/debian12', root_pass: 'Correct-Horse-Battery-42', booted: false } });
    expect(made.status).toBe(200);
    await call(svc, 'POST', '/__control/clock', { body: { advance_seconds: 60 } });

    const app = built.start(undefined, { cols: 110, rows: 30 });
    await app.waitForScreen(/Instances/, 10_000);
    app.press(':');
    await app.waitForScreen(/^: ?$/m);
    app.press('vm jobbox');
    await app.waitForScreen(/^:vm jobbox ?$/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/^› jobbox +offline/m);
    app.press('a');
    await app.waitForScreen('Actions: jobbox');
    app.press('b');
    await app.waitForScreen('1 under way');

    app.press(':');
    await app.waitForScreen(/^: ?$/m);
    app.press('jobs');
    await app.waitForScreen(/^:jobs ?$/m);
    app.press(KEYS.enter);
    // The demo service's event goes from 0 to 100 at once: under way, never a made-up percentage.
    await app.waitForScreen(/under way +Booting jobbox ▶ under way/);

    await call(svc, 'POST', '/__control/clock', { body: { advance_seconds: 30 } });
    const end = await app.waitForScreen(/Boot of jobbox finished in 5 s/, 15_000);
    expect(end).not.toContain('under way (:jobs)');
    expect(end).toMatch(/finished +Boot of jobbox finished in 5 s/);
  });
});
