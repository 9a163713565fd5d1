import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { screens } from '../../../src/screens/index.js';
import { ENTER, ESC, jumpTo, press, pressUntil, renderApp, select, type App } from '../../helpers/ink.js';
import { call, startTestService } from '../../helpers/service.js';

/**
 * On the service (4.83.1, the demo account), where the later fields are
 * absent: the old meaning is still said, and nothing is "more".
 */

let svc: RunningService;
let r: App | undefined;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(async () => {
  r?.unmount();
  await svc.close();
});

const open = (rows = 40) => {
  r?.unmount();
  r = renderApp({ svc, rows, cols: 160 });
  return r;
};

describe('4.83.1 answers', { timeout: 120_000 }, () => {
  it('describes a firewall by 4.83.1’s fixed meaning, its rules allowing', async () => {
    const created = await call(svc, 'POST', '/v4beta/networking/firewalls', {
      body: { label: 'old-style', rules: { inbound: [{ protocol: 'TCP', ports: '22', addresses: { ipv4: ['0.0.0.0/0'] } }], outbound: [] } },
    });
    expect(created.status).toBe(200);
    const app = open();
    await jumpTo(app, 'fw', 'old-style');
    await select(app, 'old-style');
    const sections = await press(app, ENTER, /Summary/);
    expect(sections).toContain('1 inbound, 0 outbound · inbound: only what the rules allow · outbound: all allowed');
    expect(sections).not.toContain('policy');
    const detail = await press(app, 'd', 'Inbound rules (unlisted inbound traffic is blocked)');
    expect(detail).toContain('Outbound rules (none: all outbound traffic allowed)');
    expect(detail).not.toMatch(/policy|More fields/);
    await press(app, ESC, /Summary/);
    const rules = await press(app, ENTER, /inbound\s+1 ACCEPT TCP\s+22/);
    expect(rules).not.toContain('policy');
    const rule = await press(app, 'd', /protocol\s+TCP/);
    expect(rule).not.toMatch(/action|label|policy|More fields/);
  });

  it('titles logins as 4.83.1 lists them: successful ones', async () => {
    const app = open();
    const list = await jumpTo(app, 'logins', /Successful logins of the last 90 days · \d+ items?/);
    expect(list).not.toMatch(/failed/);
    expect(list).toMatch(/\d\d:\d\d\s+successful\s/);
  });

  it('prices plans at their one price and marks no image', async () => {
    const app = open();
    const types = await jumpTo(app, 'types', 'g6-nanode-1');
    expect(types).not.toMatch(/\d\*|other prices/);
    const images = await jumpTo(app, 'images', /Debian/);
    expect(images).not.toMatch(/creating|pending_upload/);
  });

  it('shows no "More fields" in any detail: the service sends only what the app knows', async () => {
    const app = open(120);
    const lists = screens.filter((d) => d.list && !d.params?.length && d.list.detail);
    const seen: string[] = [];
    for (const def of lists) {
      const frame = await jumpTo(app, def.id, (f) => /\d+ items?\b|No |nothing|Could not load/i.test(f) && !/loading/.test(f));
      if (!/^› /m.test(frame)) continue;
      const detail = await pressUntil(app, 'd', (f) => / › detail/.test(f.split('\n')[1] ?? '') && !/loading/.test(f));
      seen.push(def.id);
      expect(detail, def.id).not.toContain('More fields');
      await press(app, ESC, (f) => !/ › detail/.test(f.split('\n')[1] ?? ''));
    }
    expect(seen.length).toBeGreaterThan(10);
  });
});
