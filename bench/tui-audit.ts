/**
 * The audit on a 10,000-instance account, from the cache (the budget:
 * under 200 ms). In process: the store holding 10,000 instances, 40 firewalls
 * guarding half of them (with open and closed rules), 200 tokens, 50 load
 * balancers of 4 ports with 3 nodes each, 100 access keys, 50 managed
 * services, as after visiting those areas; then what `:audit` runs on each
 * load (every list read from the cache, the rules, the sort), and the rules
 * alone on the same input. Each run a fresh copy of the instances, as a
 * refetch brings them. Medians of RUNS; ratios within the run.
 * Run: npx tsx bench/tui-audit.ts
 */
import { ApiClient } from '../src/api/client.js';
import { FIREWALLS_PATH, devicesPath } from '../src/api/firewalls.js';
import { INSTANCES_PATH } from '../src/api/instances.js';
import { CONTACTS_PATH, SERVICES_PATH } from '../src/api/managed.js';
import { NODEBALANCERS_PATH, configsPath, nodesPath } from '../src/api/nodebalancers.js';
import { KEYS_PATH } from '../src/api/object-storage.js';
import { TOKENS_PATH, listTokens } from '../src/api/profile.js';
import { createAppContext } from '../src/app/context.js';
import { audit } from '../src/model/audit.js';
import { loadAudit } from '../src/screens/audit/load.js';
import { screens } from '../src/screens/index.js';
import { PROFILE_QUERY } from '../src/screens/profile/use-object.js';
import { syntheticInstances } from './lib/synthetic.js';

const RUNS = Number(process.env.RUNS ?? 21);
const ROWS = Number(process.env.ROWS ?? 10_000);
const BUDGET_MS = 200;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 'bench' });
const app = createAppContext({ client, screens, session: { endpoint: client.baseUrl, embedded: false, readOnly: false, refreshSeconds: 60 } });
const put = app.data.getState().put;

const FIREWALLS = 40;
const perFirewall = Math.ceil(ROWS / 2 / FIREWALLS);
put({ path: FIREWALLS_PATH, root: 'beta' }, Array.from({ length: FIREWALLS }, (_, f) => ({
  id: f + 1,
  label: `fw-${f}`,
  status: 'enabled',
  tags: [],
  rules: { inbound: [{ protocol: 'TCP', ports: f % 4 === 0 ? '22, 5432' : '80, 443', addresses: { ipv4: ['0.0.0.0/0'], ipv6: ['::/0'] } }], outbound: [] },
})));
for (let f = 0; f < FIREWALLS; f++) {
  put({ path: devicesPath(f + 1), root: 'beta' }, Array.from({ length: perFirewall }, (_, d) => ({ id: d, entity: { type: 'vm', id: 1000 + f * perFirewall + d, label: '', url: '' } })));
}
put(PROFILE_QUERY, [{ username: 'bench', two_factor_auth: false, lish_auth_method: 'password_keys' }]);
put({ path: TOKENS_PATH, load: listTokens }, Array.from({ length: 200 }, (_, i) => ({ id: i, label: `t-${i}`, scopes: i % 10 ? 'vms:read_only' : '*', expiry: null, in_use: i === 0 })));
put({ path: NODEBALANCERS_PATH }, Array.from({ length: 50 }, (_, b) => ({ id: b + 1, label: `lb-${b}` })));
for (let b = 1; b <= 50; b++) {
  put({ path: configsPath(b) }, Array.from({ length: 4 }, (_, c) => ({ id: b * 10 + c, port: 443 + c, protocol: c ? 'http' : 'https', cipher_suite: b % 2 ? 'legacy' : 'recommended' })));
  for (let c = 0; c < 4; c++) put({ path: nodesPath(b, b * 10 + c) }, Array.from({ length: 3 }, (_, n) => ({ id: n, mode: 'accept', status: (b + n) % 5 ? 'UP' : 'DOWN' })));
}
put({ path: KEYS_PATH }, Array.from({ length: 100 }, (_, k) => ({ id: k, label: `key-${k}`, limited: k % 3 !== 0, bucket_access: k % 3 ? [] : null })));
put({ path: SERVICES_PATH }, Array.from({ length: 50 }, (_, s) => ({ id: s, label: `svc-${s}`, consultation_group: s % 7 ? 'oncall' : 'nobody' })));
put({ path: CONTACTS_PATH }, [{ id: 1, group: 'oncall' }]);

const viewTimes: number[] = [];
const ruleTimes: number[] = [];
let findings = 0;
for (let i = 0; i < RUNS; i++) {
  const rows = syntheticInstances(ROWS);
  put({ path: INSTANCES_PATH }, rows);
  const t0 = performance.now();
  const all = await loadAudit(app.data);
  viewTimes.push(performance.now() - t0);
  findings = all.length;
  const t1 = performance.now();
  audit({ now: Date.now(), instances: rows as never });
  ruleTimes.push(performance.now() - t1);
}

const view = median(viewTimes);
const rules = median(ruleTimes);
console.log(`audit of ${ROWS} instances from the cache (${findings} findings), ${RUNS} runs`);
console.log(`  :audit load (cache reads, every rule, sort): median ${view.toFixed(1)} ms = ${(view / BUDGET_MS).toFixed(2)} of the ${BUDGET_MS} ms budget`);
console.log(`  the instance rules alone on the same rows:   median ${rules.toFixed(1)} ms (${(rules / view).toFixed(2)} of the load)`);
