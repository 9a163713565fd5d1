// Vitest globalSetup: one service for the whole run, started in Vitest's own process; the tests get
// its address and tokens with inject('vmtui'). In vitest.config.ts: test: { globalSetup: ['./vitest.global-setup.ts'] }
import { startService } from 'vmtui/service';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    vmtui: { baseUrl: string; token: string; restrictedToken: string };
  }
}

export default async function setup(project: TestProject) {
  const service = await startService({ seed: 'empty', speed: 'instant' });
  project.provide('vmtui', { baseUrl: service.baseUrl, token: service.token, restrictedToken: service.restrictedToken });
  return () => service.close();
}
