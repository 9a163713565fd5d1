import type { Store } from '../store.js';
import type { Simulation } from '../sim.js';

export function seedNetworkingDemo(_store: Store, _sim: Simulation): void {}
