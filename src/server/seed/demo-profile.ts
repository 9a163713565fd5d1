import type { Store } from '../store.js';
import type { Simulation } from '../sim.js';

export function seedProfileDemo(_store: Store, _sim: Simulation): void {}
