import type { ApiClient } from '../api/client.js';
import type { Instance } from '../api/instances.js';
import { getVmSettings } from '../api/managed.js';
import { publicIpv4 } from '../screens/instances/format.js';

/** Where `s` logs in and what Y copies as the ssh command line. */
export interface SshTarget {
  user: string;
  host: string;
  port: number;
}

/** ssh's arguments for a target: the port only when it is not ssh's own. */
export const sshArgs = (t: SshTarget): string[] => [...(t.port === 22 ? [] : ['-p', String(t.port)]), `${t.user}@${t.host}`];

export const sshCommandLine = (t: SshTarget): string => ['ssh', ...sshArgs(t)].join(' ');

/** The program `s` runs: `ssh`, unless VMTUI_SSH names another (tests use a stand-in). */
export const sshProgram = (env: NodeJS.ProcessEnv = process.env): string => env.VMTUI_SSH || 'ssh';

/**
 * The instance's public IPv4, as root on port 22 unless its managed SSH access
 * settings name another user or port. Settings the token may not read (no
 * account scope, a restricted user) leave the defaults: ssh itself asks the
 * instance. Undefined when the instance has no public IPv4.
 */
export async function sshTarget(client: ApiClient, vm: Instance): Promise<SshTarget | undefined> {
  const host = publicIpv4(vm.ipv4);
  if (!host) return undefined;
  const ssh = await getVmSettings(client, vm.id).then(
    (s) => s.ssh,
    () => undefined,
  );
  return { user: ssh?.user || 'root', host, port: ssh?.port ?? 22 };
}

/** Why `s` cannot log in to this instance now, or nothing. */
export function sshRefusal(vm: Instance): string | undefined {
  if (vm.status !== 'running') return `${vm.label} is ${vm.status.replace(/_/g, ' ')}: ssh needs it running (a opens its actions, boot among them)`;
  if (!publicIpv4(vm.ipv4)) return `${vm.label} has no public IPv4 address to ssh to`;
  return undefined;
}

