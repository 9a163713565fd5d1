import { parentPort, workerData } from 'node:worker_threads';
import { loadService } from '../boot/parts.js';
import { demoOptions, type EmbeddedReady, type EmbeddedRequest } from './embedded.js';

/**
 * The embedded demo service in its own thread: its start-up (SQLite, routes)
 * runs beside the terminal UI's instead of before it, and its simulation and
 * requests never hold up a key press.
 */
const { data } = workerData as EmbeddedRequest;
loadService()
  .then(({ startService }) => startService(demoOptions(data)))
  .then(
    (svc) => {
      parentPort!.postMessage({ ready: { baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: svc.token } } satisfies EmbeddedReady);
      parentPort!.once('message', () => void svc.close().then(() => process.exit(0)));
    },
    (err: unknown) => parentPort!.postMessage({ failed: err instanceof Error ? err.message : String(err) } satisfies EmbeddedReady),
  );
