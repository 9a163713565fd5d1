import { useEffect, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ScreenHost } from '../../src/app/ScreenHost.js';
import type { ScreenDef, ScreenProps } from '../../src/app/screen.js';
import { Text } from '../../src/components/Text.js';
import { renderWithApp, wait } from '../helpers/ink.js';

const builds = new Map<string, number>();
const renders = new Map<string, number>();
const ticks = new Map<string, number>();

/** A screen that counts the times it is built (its state made), and its timer's ticks while it runs. */
function Counting({ entry }: ScreenProps) {
  const name = entry.screen;
  renders.set(name, (renders.get(name) ?? 0) + 1);
  const [typed] = useState(() => {
    builds.set(name, (builds.get(name) ?? 0) + 1);
    return `${name} built`;
  });
  useEffect(() => {
    const timer = setInterval(() => ticks.set(name, (ticks.get(name) ?? 0) + 1), 10);
    return () => clearInterval(timer);
  }, [name]);
  return <Text>{typed}</Text>;
}
const screen = (id: string): ScreenDef => ({ id, title: id, component: Counting });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the screen host', () => {
  it('keeps the two screens under the top mounted and hidden: going back shows one as it was, deeper ones are built again', async () => {
    builds.clear();
    ticks.clear();
    const r = renderWithApp(<ScreenHost width={40} height={5} />, { screens: ['home', 'a', 'b', 'c'].map(screen) });
    const { nav } = r.ctx;
    await wait(r, 'home built');
    for (const id of ['a', 'b', 'c']) {
      nav.getState().push(id);
      await wait(r, `${id} built`);
    }
    // Only the top is drawn; a hidden screen's effects (its timers, subscriptions, keys) stop.
    expect(r.lastFrame()).toBe('c built');
    const hiddenTicks = ticks.get('a');
    await sleep(60);
    expect(ticks.get('a')).toBe(hiddenTicks);
    expect(ticks.get('c')).toBeGreaterThan(0);

    nav.getState().pop();
    await wait(r, 'b built');
    nav.getState().pop();
    await wait(r, 'a built');
    // Shown again, its effects run again.
    await sleep(60);
    expect(ticks.get('a') ?? 0).toBeGreaterThan(hiddenTicks ?? 0);
    nav.getState().pop();
    await wait(r, 'home built');
    // b and a were shown as they were; home, three down, was built again.
    expect(Object.fromEntries(builds)).toEqual({ home: 2, a: 1, b: 1, c: 1 });
    r.unmount();
  });

  it('draws a kept screen again only when its entry or size changes, not on every push and pop above it', async () => {
    renders.clear();
    const r = renderWithApp(<ScreenHost width={40} height={5} />, { screens: ['home', 'a', 'b'].map(screen) });
    const { nav } = r.ctx;
    await wait(r, 'home built');
    nav.getState().push('a');
    await wait(r, 'a built');
    await sleep(50);
    const before = Object.fromEntries(renders);
    // An xray opened and closed ten times over a list: the home screen under it, hidden all along, is left alone.
    for (let i = 0; i < 10; i++) {
      nav.getState().push('b');
      await wait(r, 'b built');
      nav.getState().pop();
      await wait(r, 'a built');
    }
    await sleep(50);
    expect(renders.get('home')).toBe(before.home);
    r.unmount();
  });
});
