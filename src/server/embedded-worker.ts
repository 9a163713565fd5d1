import { parentPort, workerData } from 'node:worker_threads';
import { loadService } from '../boot/parts.js';
import { newTokenValue } from './auth.js';
import { demoOptions, failureOf, type EmbeddedMessage, type EmbeddedRequest } from './embedded.js';
import { openPort } from './port.js';
import { BASE_ROOT, BETA_ROOT } from './roots.js';

/**
 * The embedded demo service in its own thread: its start-up (SQLite, routes)
 * runs beside the terminal UI's instead of before it, and its simulation and
 * requests never hold up a key press. Its port opens, and its address goes
 * out, before the service's code is even loaded: the app's first requests
 * are waiting there when the service is ready.
 */
const request = workerData as EmbeddedRequest;
const tell = (msg: EmbeddedMessage) => parentPort!.postMessage(msg);
const token = newTokenValue();
openPort('127.0.0.1', 0)
  .then(async (port) => {
    tell({ listening: { baseUrl: port.origin + BASE_ROOT, betaUrl: port.origin + BETA_ROOT, token } });
    const { startRunningService } = await loadService();
    return startRunningService({ ...demoOptions(request), listening: { port, token } });
  })
  .then(
    (svc) => {
      tell({ ready: true });
      parentPort!.once('message', () => void svc.close().then(() => process.exit(0)));
    },
    (err: unknown) => tell(failureOf(err)),
  );
