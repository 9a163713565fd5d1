import { ApiClient } from '../../../src/api/client.js';
import type { RunningService } from '../../../src/server/service.js';
import { ENTER, renderApp, sendInputAndWait, waitForContent, type AppOptions } from '../../helpers/ink.js';
import { OWNER_TOKEN, call } from '../../helpers/service.js';

export type App = ReturnType<typeof renderApp>;
type Expected = Parameters<typeof waitForContent>[1];

/** Generous: the suites share two cores with other work; a wait that passes returns as soon as the frame matches. */
const TIMEOUT_MS = 15_000;

/** The whole app on the service, with a client as patient as the waits. */
export function app(svc: RunningService, opts: AppOptions = {}): App {
  const client = new ApiClient({ baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: OWNER_TOKEN, retryDelaysMs: [], timeoutMs: TIMEOUT_MS });
  return renderApp({ svc, client, rows: 30, cols: 100, ...opts });
}

export const wait = (r: App, expected: Expected) => waitForContent(r.lastFrame, expected, TIMEOUT_MS);

/** Writes keys (send Esc on its own), then waits for the frame to show `expected`. */
export const press = (r: App, keys: string, expected: Expected) => sendInputAndWait(r.stdin, keys, r.lastFrame, expected, TIMEOUT_MS);

/** `:name` Enter, then waits for `expected`. */
export async function jump(r: App, name: string, expected: Expected) {
  await press(r, ':', /^:$/m);
  await press(r, name, new RegExp(`^:${name}$`, 'm'));
  return press(r, ENTER, expected);
}

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
