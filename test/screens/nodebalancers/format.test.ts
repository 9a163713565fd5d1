import { describe, expect, it } from 'vitest';
import type { NBNode } from '../../../src/api/nodebalancers.js';
import { rebuildSummary } from '../../../src/screens/nodebalancers/config-forms.js';
import { bitsPerSecond, megabytes, nodeStatusColor, nodesColor, nodesText } from '../../../src/screens/nodebalancers/format.js';

const node = (id: number, label: string) => ({ id, label }) as NBNode;

describe('load balancer texts and colors', () => {
  it('node status: UP green, DOWN red, unknown grey', () => {
    expect(nodeStatusColor('UP')).toBe('green');
    expect(nodeStatusColor('DOWN')).toBe('red');
    expect(nodeStatusColor('unknown')).toBe('gray');
  });

  it('a config counts its nodes up, down and not seen; any down makes it red', () => {
    expect(nodesText({ nodes_status: { up: 3, down: 0 }, nodes: [1, 2, 3] })).toBe('3 up');
    expect(nodesText({ nodes_status: { up: 1, down: 1 }, nodes: [1, 2, 3] })).toBe('1 up, 1 down, 1 unknown');
    expect(nodesText({ nodes_status: { up: 0, down: 0 }, nodes: [] })).toBe('no nodes');
    expect(nodesColor({ nodes_status: { up: 2, down: 1 } })).toBe('red');
    expect(nodesColor({ nodes_status: { up: 2, down: 0 } })).toBe('green');
    expect(nodesColor({ nodes_status: { up: 0, down: 0 } })).toBe('gray');
  });

  it('units: transfer in MB, traffic in bits per second', () => {
    expect(megabytes(311.8)).toBe('311.8 MB');
    expect(megabytes(48213.57)).toBe('47.1 GB');
    expect(megabytes(null)).toBe('—');
    expect(bitsPerSecond(950)).toBe('950 b/s');
    expect(bitsPerSecond(11_200)).toBe('11.2 kb/s');
    expect(bitsPerSecond(3_400_000)).toBe('3.4 Mb/s');
  });

  it('a rebuild is summed up as nodes created, updated and deleted, naming the deleted ones', () => {
    const current = [node(1, 'web-1'), node(2, 'web-2'), node(3, 'web-3')];
    expect(rebuildSummary([{ id: 1 }, { label: 'web-4' }], current)).toBe('1 created, 1 updated, 2 deleted (web-2, web-3)');
    expect(rebuildSummary([{ id: 1 }, { id: 2 }, { id: 3 }], current)).toBe('0 created, 3 updated, 0 deleted');
  });
});
