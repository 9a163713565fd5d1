import type { Instance } from '../../api/instances.js';
import type { LoadIo } from '../../store/data.js';
import { INSTANCES_LIST, readableRows } from '../../store/lists.js';

/**
 * Each instance's label by id, for lists that name the instance an address
 * is routed to; empty when the token may not read instances (the addresses
 * are then named by id).
 */
export async function instanceLabels(io: LoadIo): Promise<Map<number, string>> {
  const instances = await readableRows<Instance>(io.read, INSTANCES_LIST).catch(() => []);
  return new Map(instances.map((vm) => [vm.id, vm.label]));
}
