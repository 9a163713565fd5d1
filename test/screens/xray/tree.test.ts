import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/api/client.js';
import { ScreenRegistry } from '../../../src/app/screen.js';
import { screens } from '../../../src/screens/index.js';
import { xrayRoot, type XNode, type XrayEnv } from '../../../src/screens/xray/tree.js';
import { createDataStore } from '../../../src/store/data.js';
import { FIREWALLS_LIST, INSTANCES_LIST, NODEBALANCERS_LIST, configsList, devicesList, nodesList } from '../../../src/store/lists.js';

// Nothing answers here: a list not cached fails, so what the tree shows came from the cache.
const client = new ApiClient({ baseUrl: 'http://127.0.0.1:9/v4', betaUrl: 'http://127.0.0.1:9/v4beta', token: 't', retryDelaysMs: [], timeoutMs: 2000 });

function env(withFirewalls: boolean): XrayEnv {
  const data = createDataStore({ client });
  const put = data.getState().put;
  put(NODEBALANCERS_LIST, [{ id: 1, label: 'web-lb', region: 'us-east' }]);
  put(configsList(1), [{ id: 10, port: 80, protocol: 'http' }]);
  put(nodesList(1, 10), [{ id: 100, label: 'n1', address: '192.168.0.5:80', status: 'UP', mode: 'accept' }, { id: 101, label: 'n2', address: '192.168.0.99:80', status: 'DOWN', mode: 'accept' }]);
  put(INSTANCES_LIST, [{ id: 7, label: 'web-1', status: 'running', region: 'us-east', ipv4: ['45.0.0.1', '192.168.0.5'], ipv6: null, tags: [] }]);
  if (withFirewalls) {
    put(FIREWALLS_LIST, [{ id: 3, label: 'web-fw', status: 'enabled', rules: { inbound: [], outbound: [] } }]);
    put(devicesList(3), [{ id: 1, entity: { type: 'vm', id: 7, label: 'web-1' } }]);
  }
  return { read: (q) => data.getState().rows(q), data, client, screens: new ScreenRegistry(screens) };
}

const line = (n: XNode) => `${n.kind}: ${n.label}${n.state ? ` [${n.state}]` : ''}`;
const child = async (n: XNode, kind: string) => (await n.children!()).find((c) => c.kind === kind)!;

describe('the xray tree', () => {
  it('a balancer → its ports → their nodes → the instance behind each → its firewalls, from the cache; a node with no instance says so', async () => {
    const e = env(true);
    const root = await xrayRoot(e, { type: 'nodebalancer', id: '1' });
    expect(line(root)).toBe('Balancer: web-lb [us-east]');
    const port = await child(root, 'Port');
    expect(line(port)).toBe('Port: port 80 (http) [web-lb]');
    const nodes = await port.children!();
    expect(nodes.map(line)).toEqual(['LB node: n1 → 192.168.0.5:80, accept [UP]', 'LB node: n2 → 192.168.0.99:80, accept [DOWN]']);
    const vm = (await nodes[0]!.children!())[0]!;
    expect(line(vm)).toBe('Instance: web-1 [running]');
    expect((await nodes[1]!.children!()).map((n) => `${line(n)}${n.note ? ' (note)' : ''}`)).toEqual(['Instance: no instance of the account has 192.168.0.99 [0] (note)']);
    const fw = await child(vm, 'Firewall');
    expect(fw.label).toMatch(/^web-fw/);
    expect(fw.to).toMatchObject({ screen: 'firewall', params: { fw: '3' } });
    // Both ways: the firewall protects the instance.
    expect((await fw.children!()).map(line)).toEqual(['Instance: web-1 [running]']);
  });

  it('a relation that cannot be read is a line saying why, the others still shown', async () => {
    const e = env(false);
    const vm = await xrayRoot(e, { type: 'vm', id: '7' });
    const lines = await vm.children!();
    const firewalls = lines.find((l) => l.kind === 'Firewalls')!;
    expect(firewalls.note).toBe(true);
    expect(firewalls.state).toBe('error');
    // The node sending to it: its port above, the balancer above that.
    const node = lines.find((l) => l.kind === 'LB node')!;
    const port = (await node.children!())[0]!;
    expect(line(port)).toBe('Port: port 80 (http) [web-lb]');
    expect((await port.children!()).map(line)).toEqual(['Balancer: web-lb [us-east]']);
  });

  it('an item of a kind it knows no relations of is shown alone, with a line saying so', async () => {
    const root = await xrayRoot(env(true), { type: 'other', kind: 'Image', label: 'debian' });
    expect((await root.children!()).map((n) => n.note && n.label)).toEqual([expect.stringMatching(/knows the relations of instances/)]);
  });
});
