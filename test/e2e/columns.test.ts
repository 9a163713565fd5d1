import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { KEYS } from '../helpers/pty.js';
import { useBuiltApp } from './build.js';

/**
 * Columns of one's choosing in the built app, in a real terminal at 80×24
 * without colour: C lists every field of the rows, Space hides or shows, < >
 * move, + widens, Enter keeps; the choice is saved in config.json for the
 * view, a later start shows it, and a shown field sorts by its letter.
 */

const built = useBuiltApp();
const home = mkdtempSync(join(tmpdir(), 'vmtui-columns-'));

afterEach(() => built.killAll());
afterAll(() => rmSync(home, { recursive: true, force: true }));

const start = () => built.start(undefined, { cols: 80, rows: 24, env: { NO_COLOR: '1', FORCE_COLOR: undefined, XDG_CONFIG_HOME: home } });

async function openInstances(app: ReturnType<typeof start>) {
  app.press(':');
  await app.waitForScreen(/^:[ ▏]?$/m, 10_000);
  app.press('vm');
  await app.waitForScreen(/^:vm[ ▏]?$/m);
  app.press(KEYS.enter);
  return app.waitForScreen(/^> web-1 /m, 10_000);
}

describe('columns in a terminal', { timeout: 120_000 }, () => {
  it('C: hide Region, show the last field first after Label and widen it; saved for instances; a new start shows them; its letter sorts', async () => {
    const app = start();
    const before = await openInstances(app);
    expect(before).toMatch(/Label +Status +Region/);
    app.press('C');
    const chooser = await app.waitForScreen(/Columns of Instances: 7 shown of \d+/);
    const offered = Number(/7 shown of (\d+)/.exec(chooser)![1]);
    // Every field of the rows is offered, nested ones by path.
    expect(offered).toBeGreaterThan(20);
    app.press('j');
    await app.waitForScreen(/^> +\[x\] +Status/m);
    app.press('j');
    await app.waitForScreen(/^> +\[x\] +Region/m);
    app.press(' ');
    await app.waitForScreen(/^> +\[ \] +Region/m);
    app.press('G');
    // The last entry: the cursor's line right above the chooser's hint.
    const last = /^> +\[ \] +(\S+) +auto\nSpace/m.exec(await app.waitForScreen(/^> +\[ \] +\S+ +auto\nSpace/m))![1]!;
    app.press(' ');
    await app.waitForScreen(new RegExp(`^> +\\[x\\] +${last.replaceAll('.', '\\.')}`, 'm'));
    // To second place: one < per entry above it but the first.
    app.press('<'.repeat(offered - 2));
    // Second: the window follows the cursor up, Label just above it.
    await app.waitForScreen(new RegExp(`Width\\n> +\\[x\\] +${last.replaceAll('.', '\\.')} +auto\\n +\\[x\\] +Status`));
    app.press('++');
    await app.waitForScreen(new RegExp(`^> +\\[x\\] +${last.replaceAll('.', '\\.')} +\\d+$`, 'm'));
    app.press(KEYS.enter);
    const after = await app.waitForScreen(new RegExp(`Label +${last.slice(0, 6).replaceAll('.', '\\.')}`));
    expect(after).not.toMatch(/Region/);
    const saved = JSON.parse(readFileSync(join(home, 'vmtui', 'config.json'), 'utf8')) as { columns: Record<string, { key: string; width?: number }[]> };
    expect(saved.columns.instances!.map((c) => c.key)).toEqual(['label', last, 'status', 'type', 'ipv4', 'tags', 'created']);
    expect(saved.columns.instances![1]!.width).toBeGreaterThan(3);
    app.kill();

    const again = start();
    const shown = await openInstances(again);
    expect(shown).toMatch(new RegExp(`Label +${last.slice(0, 6).replaceAll('.', '\\.')}`));
    expect(shown).not.toMatch(/Region/);
    // The field shown sorts by its letter (help lists it).
    again.press('?');
    const help = await again.waitForScreen(/Sort by /);
    const letter = new RegExp(`^ *([A-Z]) +Sort by ${last.replaceAll('.', '\\.')}`, 'm').exec(help)?.[1];
    expect(letter).toBeDefined();
    again.press(KEYS.esc);
    await again.waitForScreen(/^> web-1 /m);
    again.press(letter!);
    await again.waitForScreen(new RegExp(`${last.slice(0, 4).replaceAll('.', '\\.')}[^ ]* *▲`));
  });
});
