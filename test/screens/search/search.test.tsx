import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { ENTER, ESC, jumpTo, press, renderApp, wait, type App } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';

let svc: RunningService;
let vm: { id: number; label: string; ipv4: string[]; tags: string[] };
let range: { range: string; prefix: number };
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
  const vms = (await call(svc, 'GET', '/vm/instances')).body.data as (typeof vm)[];
  vm = vms.find((v) => v.tags.length > 0 && v.ipv4.length > 0)!;
  range = (await call(svc, 'GET', '/networking/ipv6/ranges')).body.data[0];
});
afterAll(() => svc.close());

const apps: App[] = [];
const open = () => {
  const r = renderApp({ svc, rows: 30, cols: 140 });
  apps.push(r);
  return r;
};
afterAll(() => apps.forEach((r) => r.unmount()));

const crumbs = (frame: string) => frame.split('\n')[1] ?? '';

describe(':search', { timeout: 60_000 }, () => {
  it('finds an instance by label, lists its area, and Enter opens its overview as drilling would', async () => {
    const r = open();
    await jumpTo(r, `search ${vm.label}`, new RegExp(`Instances\\s+${vm.label}\\s+${vm.id}`));
    const frame = await wait(r, /\d+ hits? · in \d+ lists/);
    expect(frame).toMatch(/search: /);
    await press(r, ENTER, (f) => crumbs(f).includes(`instances › ${vm.label}`));
    expect(crumbs(r.lastFrame())).toMatch(new RegExp(`^home › instances › ${vm.label}`));
    await press(r, ESC, (f) => /^home › instances$/m.test(f));
  });

  it('finds by ID and by public IPv4, and `:` with an address that names no area searches', async () => {
    const r = open();
    await jumpTo(r, `find ${vm.id}`, new RegExp(`${vm.label}\\s+${vm.id}`));
    await press(r, ':', /^:$/m);
    await press(r, vm.ipv4[0]!, /Enter searches every area/);
    await press(r, ENTER, new RegExp(`Instances\\s+${vm.label}\\s+${vm.id}\\s+ipv4 ${vm.ipv4[0]!.replace(/\./g, '\\.')}`));
  });

  it('finds an IPv6 range by an address inside it', async () => {
    const r = open();
    const inside = `${range.range.replace(/::$/, '')}::abcd`;
    await jumpTo(r, `search ${inside}`, new RegExp(`range ${range.range}/${range.prefix}`));
  });

  it('finds items by tag', async () => {
    const r = open();
    await jumpTo(r, `search ${vm.tags[0]}`, new RegExp(`Instances\\s+${vm.label}`));
  });

  it('finds an object key in a bucket, and opens its folder in the bucket', async () => {
    const r = open();
    await jumpTo(r, 'search css/', /Objects in \S+\s+css\//);
    expect(r.lastFrame()).toMatch(/first page of each bucket|\d+ hits/);
    // Each folder on the way is a crumb, as Enter on it pushes one; the object itself shows selected, with its detail.
    await press(r, ENTER, (f) => /^home › buckets › \S+ › objects › css\/ › objects › detail$/.test(crumbs(f)));
    await wait(r, /^name\s+css\/\S+\.css\s*$/m);
  });

  it('says when nothing matches', async () => {
    const r = open();
    await jumpTo(r, 'search no-such-thing-anywhere', /Nothing matches "no-such-thing-anywhere"/);
  });
});
