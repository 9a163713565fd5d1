import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeKeys } from '../../src/app/active-keys.js';
import { PRIORITY, type LayerInfo } from '../../src/app/key-router.js';
import { KEYMAP, type CommandId } from '../../src/app/keymap.js';
import type { RunningService } from '../../src/server/service.js';
import { ENTER, press, renderApp, wait, type App } from '../helpers/ink.js';
import { startTestService } from '../helpers/service.js';

/**
 * Keys a view may answer in its own way without changing what the key means:
 * Esc always goes back a step (closing, cancelling, clearing first), and
 * Ctrl-C stops a bulk action under way before it quits. Any other global key
 * a view takes is a key that means two things.
 */
const SAME_MEANING: Partial<Record<CommandId, readonly CommandId[]>> = {
  back: ['close', 'cancel', 'clearFilter', 'stopBulk'],
  quit: ['stopBulk'],
};

const keysOf = (id: CommandId) => KEYMAP[id].keys as readonly string[];

/** What is wrong with the keys of the view on screen: a key bound twice, or advertised (footer, help) and answered by another command. */
function keyProblems(layers: LayerInfo[], where: string): string[] {
  const problems: string[] = [];
  // Within a layer: one key, two commands.
  for (const layer of layers) {
    const seen = new Map<string, CommandId>();
    for (const id of layer.commands)
      for (const k of keysOf(id)) {
        const other = seen.get(k);
        if (other) problems.push(`${where}: ${layer.title} binds ${k} to ${other} and ${id}`);
        seen.set(k, id);
      }
  }
  const top = layers.find((l) => l.priority !== PRIORITY.global);
  const global = layers.find((l) => l.priority === PRIORITY.global);
  // Across the view and the global keys: a global key the view takes must keep its meaning.
  if (top && global && top.modal !== 'full') {
    for (const id of global.commands)
      for (const k of keysOf(id)) {
        const taker = top.commands.find((t) => keysOf(t).includes(k));
        if (taker && taker !== id && !SAME_MEANING[id]?.includes(taker)) problems.push(`${where}: ${k} is ${id} everywhere, but ${taker} here`);
      }
  }
  // What the footer and help list: each key goes, by the router's order, to the command listed for it.
  const routed = (k: string) => {
    for (const layer of layers) {
      if (layer.priority >= PRIORITY.app) continue;
      const id = layer.commands.find((c) => keysOf(c).includes(k));
      if (id) return `${layer.title}:${id}`;
      if (layer.modal === 'full') return undefined;
    }
    return undefined;
  };
  for (const section of activeKeys(layers.filter((l) => l.priority < PRIORITY.app), false)) {
    const layer = section.title === 'Everywhere' ? global : top;
    for (const line of section.lines) {
      if (line.id.startsWith('plugin:')) continue;
      for (const k of line.keys) {
        const by = routed(k);
        if (by !== `${layer?.title}:${line.id}` && !SAME_MEANING[line.id as CommandId]?.some((s) => by?.endsWith(`:${s}`))) problems.push(`${where}: ${k} is listed as ${line.id} but answered by ${by ?? 'nothing'}`);
      }
    }
  }
  return problems;
}

/** Waits until the key layers stop changing (a view binds its keys as it draws). */
async function settled(r: App): Promise<LayerInfo[]> {
  let last = '';
  let since = Date.now();
  for (;;) {
    const layers = r.ctx.ui.getState().layers;
    const now = JSON.stringify(layers.map((l) => [l.title, l.commands]));
    if (now !== last) [last, since] = [now, Date.now()];
    else if (Date.now() - since > 150) return layers;
    await new Promise((res) => setTimeout(res, 10));
  }
}

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe('every view of the keymap', () => {
  it('binds no key twice, and answers every key its footer and help list, as the keymap says, in every area and one level down', { timeout: 240_000 }, async () => {
    const r = renderApp({ svc, rows: 40, cols: 140 });
    await wait(r, 'Instances');
    const problems: string[] = [];
    const check = async (where: string) => problems.push(...keyProblems(await settled(r), where));
    await check('home');
    for (const def of r.ctx.screens.all.filter((d) => !d.params?.length)) {
      if (def.id === 'home') continue;
      r.ctx.nav.getState().jump(def.id);
      await wait(r, (f) => f.split('\n')[1]!.endsWith(def.title.toLowerCase()));
      await check(def.id);
      if (!def.list) continue;
      // One level down: the first row's view, when the list has one.
      const frame = await wait(r, (f) => /^› /m.test(f) || /No |nothing|empty/i.test(f));
      if (!/^› /m.test(frame)) continue;
      const depth = r.ctx.nav.getState().stack.length;
      r.stdin.write(ENTER);
      await wait(r, () => r.ctx.nav.getState().stack.length > depth || r.ctx.views.getState().views[r.ctx.nav.getState().stack.at(-1)!.key]?.overlay != null);
      await check(`${def.id} › ${r.ctx.nav.getState().stack.at(-1)!.screen}`);
    }
    expect(problems).toEqual([]);
  });

  it('docs/tui.md names each key that works in every view (the walk above finds each answered everywhere)', async () => {
    const r = renderApp({ svc, rows: 30, cols: 120 });
    await wait(r, 'Instances');
    const docs = readFileSync('docs/tui.md', 'utf8');
    const written = (k: string) => ({ escape: 'Esc', 'ctrl+c': 'Ctrl-C' })[k] ?? `\`${k}\``;
    const global = r.ctx.ui.getState().layers.find((l) => l.priority === PRIORITY.global)!;
    // The triage key too, though it is bound only while a service is in problem.
    const commands = [...new Set([...global.commands, 'triage' as const])];
    expect(commands).toEqual(expect.arrayContaining(['quit', 'command', 'help', 'back', 'messages']));
    expect(commands.flatMap((id) => keysOf(id).filter((k) => !docs.includes(written(k))).map((k) => `${id}: ${k}`))).toEqual([]);
  });

  it('M shows the messages in the instances and load balancer lists, as in every other view', async () => {
    const r = renderApp({ svc, rows: 30, cols: 120 });
    await wait(r, 'Instances');
    for (const id of ['instances', 'nodebalancers']) {
      r.ctx.nav.getState().jump(id);
      await wait(r, /^› /m);
      await press(r, 'M', /^home › .*messages$/m);
    }
  });
});
