import type { Store } from '../store.js';
import type { Simulation } from '../sim.js';
import { seedComputeDemo } from './demo-compute.js';
import { seedNodebalancersDemo } from './demo-nodebalancers.js';
import { seedNetworkingDemo } from './demo-networking.js';
import { seedObjectStorageDemo } from './demo-object-storage.js';
import { seedManagedDemo } from './demo-managed.js';
import { seedProfileDemo } from './demo-profile.js';
import { seedImagesDemo } from './demo-images.js';

export type DemoStep = (store: Store, sim: Simulation) => void;

/** In order: later steps refer to what earlier ones made (instances before balancers, firewalls, managed settings, grants). */
export const demoSteps: DemoStep[] = [
  seedComputeDemo,
  seedImagesDemo,
  seedNodebalancersDemo,
  seedNetworkingDemo,
  seedObjectStorageDemo,
  seedManagedDemo,
  seedProfileDemo,
];
