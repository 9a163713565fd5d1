import { Worker } from 'node:worker_threads';
import { loadService, servicesInThreads } from '../boot/parts.js';

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

/**
 * Starts the demo service on a loopback port; resolves once it answers. The
 * build runs it in a worker thread; from the sources it runs in this thread.
 */
export async function startEmbedded(data: string): Promise<EmbeddedService> {
  if (!servicesInThreads()) return (await loadService()).startService(demoOptions(data));
  // The worker's bundle sits beside this one in dist/.
  const worker = new Worker(new URL('./embedded-worker.js', import.meta.url), { workerData: { data } satisfies EmbeddedRequest });
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
