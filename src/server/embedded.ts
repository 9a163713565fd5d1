import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

export interface EmbeddedRequest {
  data: string;
}

export const demoOptions = (data: string) => ({ data, seed: 'demo', speed: 'realistic', port: 0 }) as const;

export type EmbeddedReady = { ready: { baseUrl: string; betaUrl: string; token: string } } | { failed: string };

export interface EmbeddedService {
  baseUrl: string;
  betaUrl: string;
  token: string;
  close(): Promise<void>;
}

const CLOSE_TIMEOUT_MS = 2000;

/** The worker's file in the bundle, at the top of dist/ (this code sits in dist/chunks/). */
const BUILT_WORKER = new URL('../embedded-worker.js', import.meta.url);

/**
 * Starts the demo service on a loopback port; resolves once it answers. The
 * bundle runs it in a worker thread. From the sources it runs in this thread:
 * tsx cannot load TypeScript in a worker on Node 20.
 */
export async function startEmbedded(data: string): Promise<EmbeddedService> {
  if (!import.meta.url.endsWith('.js') || !existsSync(BUILT_WORKER)) return (await import('./service.js')).startService(demoOptions(data));
  const worker = new Worker(BUILT_WORKER, { workerData: { data } satisfies EmbeddedRequest });
  return new Promise((resolve, reject) => {
    const died = (why: string) => {
      void worker.terminate();
      reject(new Error(`the embedded service did not start: ${why}`));
    };
    worker.once('error', (err) => died(err.message));
    worker.once('exit', (code) => died(`its thread exited with code ${code}`));
    worker.once('message', (msg: EmbeddedReady) => {
      if ('failed' in msg) return died(msg.failed);
      worker.removeAllListeners('exit');
      let closing: Promise<void> | undefined;
      resolve({
        ...msg.ready,
        close: () =>
          (closing ??= new Promise<void>((done) => {
            // Quitting never hangs on the service: every acknowledged write is committed already.
            const stuck = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
            worker.once('exit', () => {
              clearTimeout(stuck);
              done();
            });
            worker.postMessage('close');
          })),
      });
    });
  });
}
