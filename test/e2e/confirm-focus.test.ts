import { describe, expect, it } from 'vitest';
import { KEYS, type PtyApp } from '../helpers/pty.js';
import { call } from '../helpers/service.js';
import { useBuiltApp } from './build.js';

const built = useBuiltApp();

const labels = async () => ((await call(built.svc, 'GET', '/vm/instances')).body.data as { label: string }[]).map((vm) => vm.label);

/** Starts the app and selects the instance `label` on :instances, filtered to it. */
async function openInstance(label: string): Promise<PtyApp> {
  const app = built.start(undefined, { cols: 80, rows: 24, env: { NO_COLOR: '1' } });
  await app.waitForScreen(/Instances\s+\d+/);
  app.press(':');
  await app.waitForScreen(/^:.?$/m);
  app.press('vm');
  await app.waitForScreen(/^:vm.?$/m);
  app.press(KEYS.enter);
  await app.waitForScreen(/^home › instances$/m);
  app.press('/');
  app.press(label);
  await app.waitForScreen(/1 of \d+/);
  app.press(KEYS.enter);
  await app.waitForScreen(new RegExp(`^> ${label}`, 'm'));
  return app;
}

/** Ctrl-D, the label typed (the focus then on Delete), `keys` one by one, Enter: the instance must still be there. */
async function typedThenBack(app: PtyApp, label: string, keys: string[]) {
  app.press(KEYS.ctrlD);
  await app.waitForScreen('>[ Cancel ]<');
  app.press(label);
  // Typing the label moves the focus to the destructive button, in plain text too.
  await app.waitForScreen('>[ Delete ]<');
  for (const key of keys) app.press(key);
  const screen = await app.waitForScreen('>[ Cancel ]<');
  expect(screen).not.toContain('>[ Delete ]<');
  app.press(KEYS.enter);
  await app.waitForScreen(new RegExp(`^> ${label}`, 'm'));
  expect(await labels()).toContain(label);
}

describe('a type-the-label delete in a terminal (80×24, NO_COLOR)', { timeout: 120_000 }, () => {
  it('with the label typed, Tab or ← back to Cancel and Enter keep the instance; typed and Enter on Delete deletes it', async () => {
    const [label] = await labels();
    expect(label).toBeTruthy();
    const app = await openInstance(label!);

    for (const back of [KEYS.tab, KEYS.left]) await typedThenBack(app, label!, [back]);

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

  it('arrows are directions: ← pressed again and again, or → held then ← ←, ends on Cancel and Enter keeps the instance', async () => {
    const label = (await labels())[1]!;
    const app = await openInstance(label);
    // The footer names the arrows by where they go; nothing there "switches".
    app.press(KEYS.ctrlD);
    const footer = await app.waitForScreen('← to Cancel');
    expect(footer).toContain('→ to action');
    expect(footer).not.toMatch(/switch/);
    app.press(KEYS.esc);
    await app.waitForScreen(new RegExp(`^> ${label}`, 'm'));

    await typedThenBack(app, label, [KEYS.left, KEYS.left, KEYS.left]);
    await typedThenBack(app, label, [KEYS.left, KEYS.left]);
    await typedThenBack(app, label, [KEYS.right, KEYS.right, KEYS.right, KEYS.right, KEYS.left, KEYS.left]);
    // A held key arrives as one burst of repeats.
    await typedThenBack(app, label, [KEYS.right.repeat(6), KEYS.left.repeat(2)]);

    app.press('q');
    expect(await app.exited).toBe(0);
  });
});
