import type { ApiClient } from '../../api/client.js';
import { listDisks, listInstances } from '../../api/instances.js';
import type { Choice } from '../../components/form/types.js';
import { sizeText } from '../instances/format.js';

/** Disks are listed for this many instances at once. */
const CONCURRENCY = 4;

/**
 * The disks an image can be captured from, as "instance › disk" choices:
 * every instance's disks except swap, those not ready marked.
 */
export async function diskChoices(client: ApiClient): Promise<Choice[]> {
  const instances = await listInstances(client);
  const out: Choice[][] = [];
  let next = 0;
  const worker = async () => {
    while (next < instances.length) {
      const i = next++;
      const vm = instances[i]!;
      const disks = await listDisks(client, vm.id);
      out[i] = disks
        .filter((d) => d.filesystem !== 'swap')
        .map((d) => ({ value: String(d.id), label: `${vm.label} › ${d.label} (${d.id}, ${sizeText(d.size)}${d.status === 'ready' ? '' : `, ${d.status}`})` }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, instances.length) }, worker));
  return out.flat();
}
