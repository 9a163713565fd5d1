import type { Store } from './store.js';

type InstanceHook = (store: Store, vmId: number) => void;

const instanceDeleted: InstanceHook[] = [];

/**
 * Cross-area consequences of deleting an instance (firewall devices, managed
 * settings, addresses, grants) without the compute area knowing each of them.
 */
export function onInstanceDeleted(hook: InstanceHook): void {
  instanceDeleted.push(hook);
}

export function instanceWasDeleted(store: Store, vmId: number): void {
  for (const hook of instanceDeleted) hook(store, vmId);
}
