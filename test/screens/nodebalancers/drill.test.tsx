import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningService } from '../../../src/server/service.js';
import { DOWN, ENTER, ESC } from '../../helpers/ink.js';
import { startTestService } from '../../helpers/service.js';
import { app, jump, press, selectedRow, wait } from './helpers.js';

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe('load balancers on the demo account', { timeout: 60_000 }, () => {
  it('lists balancers, drills balancer → configs → nodes and comes back with Esc to the same rows', async () => {
    const r = app(svc);
    const list = await jump(r, 'lb', 'staging-lb');
    expect(list).toMatch(/Label\s+Region\s+IPv4\s+Throttle\s+Transfer\s+Tags/);
    expect(list).toMatch(/› web-lb\s+us-east\s+139\.162\.0\.2\s+10\/s\s+47\.1 GB\s+production, web/);
    expect(list).toMatch(/staging-lb\s+eu-central\s+\S+\s+off\s+311\.8 MB/);

    const configs = await press(r, ENTER, 'http_cookie');
    expect(configs).toMatch(/^home › load balancers › web-lb › configs$/m);
    expect(configs).toMatch(/Port\s+Proto\s+Algorithm\s+Sticky\s+Check\s+Nodes\s+Certificate/);
    expect(configs).toMatch(/› +80 http\s+roundrobin\s+table\s+http\s+3 up/);
    expect(configs).toMatch(/443 https\s+roundrobin\s+http_cookie\s+http_body\s+3 up\s+www\.example\.com/);

    r.stdin.write(DOWN);
    await wait(r, /^› +443 https/m);
    const nodes = await press(r, ENTER, 'web-3');
    expect(nodes).toMatch(/^home › load balancers › web-lb › configs › port 443 \(https\) › nodes$/m);
    expect(nodes).toMatch(/Label\s+Address\s+Status\s+Mode\s+Weight/);
    expect(nodes).toMatch(/› web-1\s+192\.168\.128\.2:80\s+UP\s+accept\s+100/);
    expect(nodes).toMatch(/web-2\s+192\.168\.128\.3:80\s+UP\s+drain/);
    expect(nodes).toMatch(/web-3\s+192\.168\.128\.4:80\s+UP\s+backup/);

    const back = await press(r, ESC, /^home › load balancers › web-lb › configs$/m);
    expect(selectedRow(back)).toMatch(/443 https/);
    const top = await press(r, ESC, /^home › load balancers$/m);
    expect(selectedRow(top)).toMatch(/web-lb/);
  });

  it('d shows a balancer in sections, a config with its health check and certificate', async () => {
    const r = app(svc);
    await jump(r, 'nodebalancers', 'staging-lb');
    const detail = await press(r, 'd', 'Transfer this month (MB)');
    expect(detail).toMatch(/^Load balancer$/m);
    expect(detail).toMatch(/hostname\s+nb-139-162-0-2\.us-east\.nodebalancer\.example/);
    expect(detail).toMatch(/transfer\.total\s+48213\.57/);
    await press(r, ESC, (f) => !f.includes('Transfer this month'));
    await press(r, ENTER, 'http_cookie');
    r.stdin.write(DOWN);
    await wait(r, /^› +443/m);
    const config = await press(r, 'd', 'Health check');
    expect(config).toMatch(/check_path\s+\/health/);
    expect(config).toMatch(/ssl_commonname\s+www\.example\.com/);
    expect(config).toMatch(/ssl_fingerprint\s+BC:92:AF/);
  });

  it('the stats action charts connections and traffic with current, min, max and a time axis; ↑↓ switch balancers', async () => {
    const r = app(svc, { rows: 40 });
    await jump(r, 'lb', 'staging-lb');
    await press(r, 'a', 'Statistics (connections, traffic)');
    const stats = await press(r, 't', 'Traffic out');
    expect(stats).toMatch(/^home › load balancers › web-lb › lb stats$/m);
    expect(stats).toContain('vmcloud.example - web-lb (31001) - day (5 min avg)');
    expect(stats).toMatch(/Connections {2}current [\d.]+\/s {2}min [\d.]+\/s {2}max [\d.]+\/s/);
    expect(stats).toMatch(/Traffic in {2}current [\d.]+ k?b\/s {2}min [\d.]+ k?b\/s {2}max [\d.]+ k?b\/s/);
    // Y-axis labels with ticks, the x axis, and HH:MM time labels under it.
    expect(stats).toMatch(/[\d.]+\/s ┤[\u2800-\u28ff]+/);
    expect(stats).toMatch(/└─{20,}/);
    expect(stats).toMatch(/^\s+\d\d:\d\d\s+\d\d:\d\d\s+\d\d:\d\d\s*$/m);
    // The balancers to pick from sit beside the charts.
    expect(stats).toMatch(/› web-lb\s+/);
    const next = await press(r, DOWN, 'api-lb (31002)');
    expect(next).toMatch(/› api-lb/);
    // Enter opens the chosen balancer's configs.
    await press(r, ENTER, /^home › load balancers › web-lb › lb stats › api-lb › configs$/m);
  });

  it(':lbstats opens on the first balancer', async () => {
    const r = app(svc, { rows: 40 });
    const stats = await jump(r, 'lbstats', 'Traffic out');
    expect(stats).toContain('web-lb (31001)');
  });
});
