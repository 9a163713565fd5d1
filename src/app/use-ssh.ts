import { useStdout } from 'ink';
import type { Instance } from '../api/instances.js';
import { useApp } from './context.js';
import { sshArgs, sshCommandLine, sshProgram, sshRefusal, sshTarget } from './ssh.js';
import { lendTerminal, runInherited } from './terminal.js';

/**
 * `s` on an instance: the terminal goes to ssh (or VMTUI_SSH) until it ends,
 * then the app draws the same view again. Keys stop being read meanwhile, so
 * every keystroke is ssh's. It changes nothing through the API: it stays
 * under --read-only.
 */
export function useSsh(): (vm: Instance) => void {
  const { client, session } = useApp();
  const { stdout } = useStdout();
  const notify = (text: string, kind?: 'info' | 'success' | 'error') => session.getState().notify(text, kind);
  return (vm) => {
    const refusal = sshRefusal(vm);
    if (refusal) return notify(refusal, 'error');
    void (async () => {
      const target = await sshTarget(client, vm);
      if (!target) return notify(`${vm.label} has no public IPv4 address to ssh to`, 'error');
      const line = sshCommandLine(target);
      const ended = await lendTerminal(stdout, () => runInherited(sshProgram(), sshArgs(target)));
      notify(ended.ok ? `Back from ${line}` : `${line}: ${ended.text}${ended.missing ? ' (VMTUI_SSH names another program)' : ''}`, ended.ok ? 'success' : 'error');
    })();
  };
}
