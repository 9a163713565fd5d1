import { describe, expect, it } from 'vitest';
import { sortKeyHelp, sortKeys } from '../../src/components/list/sort-keys.js';
import { sshArgs, sshCommandLine, sshRefusal } from '../../src/app/ssh.js';
import type { Instance } from '../../src/api/instances.js';

const cols = (...titles: string[]) => titles.map((title) => ({ title }));

describe('sort keys', () => {
  it("gives each column its initial, else the next free letter of its title; G and Y stay bottom and copy", () => {
    const columns = cols('Label', 'Group', 'Region', 'Status', 'Size', 'Y');
    const keys = sortKeys(columns);
    expect(keys).toEqual(['L', 'R', 'E', 'S', 'I', undefined]);
    expect(sortKeyHelp(columns, keys)).toEqual([
      { keys: 'L', help: 'Sort by Label' },
      { keys: 'R', help: 'Sort by Group (G is bottom)' },
      { keys: 'E', help: 'Sort by Region (R sorts by Group)' },
      { keys: 'S', help: 'Sort by Status' },
      { keys: 'I', help: 'Sort by Size (S sorts by Status)' },
    ]);
  });
});

describe('ssh target', () => {
  const vm = (patch: Partial<Instance>) => ({ label: 'web-1', status: 'running', ipv4: ['192.168.128.2', '45.79.0.2'], ...patch }) as Instance;

  it('writes the port only when it is not 22', () => {
    expect(sshArgs({ user: 'root', host: '45.79.0.2', port: 22 })).toEqual(['root@45.79.0.2']);
    expect(sshCommandLine({ user: 'deploy', host: '45.79.0.2', port: 2222 })).toBe('ssh -p 2222 deploy@45.79.0.2');
  });

  it('refuses an instance not running, or without a public IPv4, with the reason', () => {
    expect(sshRefusal(vm({}))).toBeUndefined();
    expect(sshRefusal(vm({ status: 'shutting_down' }))).toBe('web-1 is shutting down: ssh needs it running (a opens its actions, boot among them)');
    expect(sshRefusal(vm({ ipv4: ['192.168.128.2'] }))).toBe('web-1 has no public IPv4 address to ssh to');
  });
});
