import { parentPort, workerData } from 'node:worker_threads';
import { loadService } from '../boot/parts.js';
import { demoOptions, type EmbeddedMessage, type EmbeddedRequest } from './embedded.js';

/**
 * The embedded demo service in its own thread: its start-up (SQLite, routes)
 * runs beside the terminal UI's instead of before it, and its simulation and
 * requests never hold up a key press. Its address goes out as soon as its
 * port is open, so the app's first requests are there when it is ready.
 */
const { data } = workerData as EmbeddedRequest;
const tell = (msg: EmbeddedMessage) => parentPort!.postMessage(msg);
loadService()
  .then(({ startService }) => startService({ ...demoOptions(data), onListening: (where) => tell({ listening: where }) }))
  .then(
    (svc) => {
      tell({ ready: true });
      parentPort!.once('message', () => void svc.close().then(() => process.exit(0)));
    },
    (err: unknown) => tell({ failed: err instanceof Error ? err.message : String(err) }),
  );
