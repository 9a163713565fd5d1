import { describe, expect, it } from 'vitest';
import { KEYS } from '../helpers/pty.js';
import { call } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

const built = useBuiltApp();

const labels = async () => ((await call(built.svc, 'GET', '/vm/instances')).body.data as { label: string }[]).map((vm) => vm.label);

describe('a type-the-label delete in a terminal (80×24, NO_COLOR)', { timeout: 120_000 }, () => {
  it('with the label typed, Tab or ← back to Cancel and Enter keep the instance; typed and Enter on Delete deletes it', async () => {
    const [label] = await labels();
    expect(label).toBeTruthy();
    const app = built.start(undefined, { cols: 80, rows: 24, env: { NO_COLOR: '1' } });
    await app.waitForScreen(/Instances\s+\d+/);
    app.press(':');
    await app.waitForScreen(/^:.?$/m);
    app.press('vm');
    await app.waitForScreen(/^:vm.?$/m);
    app.press(KEYS.enter);
    await app.waitForScreen(/^home › instances$/m);
    app.press('/');
    app.press(label!);
    await app.waitForScreen(/1 of \d+/);
    app.press(KEYS.enter);
    await app.waitForScreen(new RegExp(`^> ${label}`, 'm'));

    for (const back of [KEYS.tab, KEYS.left]) {
      app.press(KEYS.ctrlD);
      await app.waitForScreen('>[ Cancel ]<');
      app.press(label!);
      // Typing the label moves the focus to the destructive button, in plain text too.
      await app.waitForScreen('>[ Delete ]<');
      app.press(back);
      const screen = await app.waitForScreen('>[ Cancel ]<');
      expect(screen).not.toContain('>[ Delete ]<');
      app.press(KEYS.enter);
      await app.waitForScreen(new RegExp(`^> ${label}`, 'm'));
      expect(await labels()).toContain(label);
    }

    // The same steps without moving back delete it: the keys above did reach the dialog.
    app.press(KEYS.ctrlD);
    await app.waitForScreen('>[ Cancel ]<');
    app.press(label!);
    await app.waitForScreen('>[ Delete ]<');
    app.press(KEYS.enter);
    await app.waitForScreen(`Delete ${label}: done`);
    expect(await labels()).not.toContain(label);

    app.press('q');
    expect(await app.exited).toBe(0);
  });
});
