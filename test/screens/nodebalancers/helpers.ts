import type { RunningService } from '../../../src/server/service.js';
import { renderApp, type App, type AppOptions } from '../../helpers/ink.js';
import { call } from '../../helpers/service.js';

export { jumpTo as jump, press, wait, type App } from '../../helpers/ink.js';

/** The whole app on the service. */
export const app = (svc: RunningService, opts: AppOptions = {}): App => renderApp({ svc, rows: 30, cols: 100, ...opts });

/** The text inside a dialog's border, its wrapped lines joined. */
export const dialogText = (frame: string) =>
  frame
    .split('\n')
    .filter((l) => l.startsWith('│'))
    .map((l) => l.slice(1, -1).trim())
    .join(' ');

/** The selected row of a list: the line starting with the marker. */
export const selectedRow = (frame: string) => frame.split('\n').find((l) => l.startsWith('› ')) ?? '';

/** The form field's line (marker, title, value and error beside it). */
export const fieldLine = (frame: string, title: string) => frame.split('\n').find((l) => l.slice(2).startsWith(title)) ?? '';

/** A balancer in us-east with one http config on port 80 and two nodes, made through the API. */
export async function seedBalancer(svc: RunningService, label = 'shop-lb') {
  const res = await call(svc, 'POST', '/nodebalancers', {
    body: {
      region: 'us-east',
      label,
      client_conn_throttle: 5,
      configs: [
        {
          port: 80,
          protocol: 'http',
          check: 'http',
          check_path: '/health',
          nodes: [
            { label: 'app-a', address: '192.168.10.1:8080', weight: 100 },
            { label: 'app-b', address: '192.168.10.2:8080', mode: 'backup' },
          ],
        },
      ],
    },
  });
  if (res.status !== 200) throw new Error(`seeding ${label}: ${JSON.stringify(res.body)}`);
  const configs = await call(svc, 'GET', `/nodebalancers/${res.body.id}/configs`);
  return { nb: res.body.id as number, config: configs.body.data[0].id as number };
}
