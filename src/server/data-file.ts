import { join } from 'node:path';
import envPaths from 'env-paths';

/** The service's data when no --data is given: service.sqlite in the user's data folder. */
export function defaultDataFile(): string {
  return join(envPaths('vmtui', { suffix: '' }).data, 'service.sqlite');
}
