import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { FLAW } from '../../../src/model/response.js';
import { RULES } from '../../../src/model/audit.js';
import { loadAudit } from '../../../src/screens/audit/load.js';
import { createDataStore } from '../../../src/store/data.js';
import { NODEBALANCERS_LIST, configsList, nodesList } from '../../../src/store/lists.js';

const flawed = (raw: unknown, key: string) => ({ [FLAW]: { reason: 'port is not a number', key, raw } });

describe('the audit over records the server sent unreadable', () => {
  it('reads no port or node by an id it does not have: the unreadable port is said, the balancer and its other ports checked', async () => {
    // Nothing answers here: every list the audit reads must come from the cache.
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 't', retryDelaysMs: [], timeoutMs: 2000 });
    const data = createDataStore({ client });
    data.getState().put(NODEBALANCERS_LIST, [{ id: 1, label: 'api-lb' }, flawed(null, '#2')]);
    data.getState().put(configsList(1), [{ id: 10, port: 443, protocol: 'https', cipher_suite: 'legacy' }, flawed(null, '#1')]);
    data.getState().put(nodesList(1, 10), [{ mode: 'accept', status: 'UP' }]);
    const asked: string[] = [];
    const rows = data.getState().rows;
    data.setState({ rows: (q) => (asked.push(q.path), rows(q)) });

    const findings = await loadAudit(data);
    expect(asked.filter((p) => p.includes('undefined'))).toEqual([]);
    expect(findings.find((f) => f.item.label === 'load balancers')).toBeUndefined();
    expect(findings.filter((f) => f.rule === 'port-legacy-ciphers').map((f) => f.item.label)).toEqual(['api-lb:443']);
    expect(findings.filter((f) => f.rule === 'port-no-node')).toEqual([]);
    const notes = findings.filter((f) => f.rule === 'unchecked').map((f) => f.why);
    expect(notes).toContain('1 port of api-lb not checked: the server sent them unreadable');
    expect(notes).toContain('1 load balancer not checked: the server sent them unreadable');
  });

  it('runs only the rules asked for (the header counts the high findings alone)', async () => {
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 't', retryDelaysMs: [], timeoutMs: 2000 });
    const data = createDataStore({ client });
    data.getState().put(NODEBALANCERS_LIST, [{ id: 1, label: 'api-lb' }]);
    data.getState().put(configsList(1), [{ id: 10, port: 443, protocol: 'https', cipher_suite: 'legacy' }]);
    data.getState().put(nodesList(1, 10), []);
    const all = await loadAudit(data, Date.now(), { cachedOnly: true });
    expect(all.map((f) => f.rule)).toEqual(expect.arrayContaining(['port-no-node', 'port-legacy-ciphers']));
    const high = RULES.filter((r) => r.severity === 'high');
    const some = await loadAudit(data, Date.now(), { cachedOnly: true, rules: high });
    expect(some.filter((f) => f.rule !== 'unchecked' && f.severity !== 'note').map((f) => f.rule)).toEqual(['port-no-node']);
  });
});
