import { createWriteStream } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { loadService, servicesInThreads } from '../boot/parts.js';
import { isDataFileError } from './data-file.js';

export interface EmbeddedRequest {
  data: string;
  /** Read requests as `serve --strict` does; tolerant by default. */
  strict: boolean;
}

export const demoOptions = ({ data, strict }: EmbeddedRequest) => ({ data, strict, seed: 'demo', speed: 'realistic', port: 0 }) as const;

/** What the service's thread says: its address once the port is open, then whether it started. */
export type EmbeddedMessage = { listening: { baseUrl: string; betaUrl: string; token: string } } | { ready: true } | { failed: string; startOver: boolean };

/**
 * Why the demo's service did not start. A data file whose contents are the
 * problem gets the way out: `--fresh` starts the demo account over, keeping
 * the old file aside.
 */
export function failureOf(err: unknown): { failed: string; startOver: boolean } {
  const failed = err instanceof Error ? err.message : String(err);
  return { failed, startOver: isDataFileError(err) && err.startOver };
}

function startFailed(data: string, why: { failed: string; startOver: boolean }): Error {
  const remedy = why.startOver ? `. \`vmtui --fresh\` starts the demo account over; the old file is kept aside as ${data}.broken-<time>` : '';
  return new Error(`the embedded service did not start: ${why.failed}${remedy}`);
}

export interface EmbeddedService {
  baseUrl: string;
  betaUrl: string;
  token: string;
  /** Resolves once the service answers (requests sent before wait for it); rejects with why it could not start. */
  started: Promise<void>;
  close(): Promise<void>;
}

const CLOSE_TIMEOUT_MS = 2000;

/** Where the demo's service logs an internal error (its id is in the answer the app shows): beside the data file. */
export const errorLogOf = (data: string) => `${data}.errors.log`;

/**
 * The service's stderr would be drawn over the app's screen: what it writes
 * (an internal error's id, method, path and stack, never a secret) goes to a
 * private file, made only when there is something to write.
 */
export function keepErrorLog(worker: Worker, data: string): void {
  worker.stderr.once('data', (first: Buffer) => {
    if (data === ':memory:') return void worker.stderr.resume();
    const log = createWriteStream(errorLogOf(data), { flags: 'a', mode: 0o600 });
    log.on('error', () => worker.stderr.unpipe(log).resume());
    log.write(first);
    worker.stderr.pipe(log);
  });
}

/**
 * Starts the demo service on a loopback port; resolves as soon as the port
 * is open. The build runs it in a worker thread; from the sources it runs in
 * this thread.
 */
export async function startEmbedded(data: string, strict = false): Promise<EmbeddedService> {
  if (!servicesInThreads()) {
    const svc = await (await loadService()).startRunningService(demoOptions({ data, strict })).catch((err: unknown) => {
      throw startFailed(data, failureOf(err));
    });
    return { baseUrl: svc.baseUrl, betaUrl: svc.betaUrl, token: svc.token, started: Promise.resolve(), close: () => svc.close() };
  }
  // The worker's bundle sits beside this one in dist/.
  const worker = new Worker(new URL('./embedded-worker.js', import.meta.url), { workerData: { data, strict } satisfies EmbeddedRequest, stderr: true });
  keepErrorLog(worker, data);
  let starting!: { resolve(): void; reject(err: Error): void };
  const started = new Promise<void>((resolve, reject) => (starting = { resolve, reject }));
  // A failure before the port opened is the returned promise's to report.
  started.catch(() => {});
  const exited = new Promise<void>((done) => worker.once('exit', () => done()));
  return new Promise((resolve, reject) => {
    const died = (why: { failed: string; startOver: boolean }) => {
      void worker.terminate();
      const err = startFailed(data, why);
      reject(err);
      starting.reject(err);
    };
    const diedEarly = (code: number) => died({ failed: `its thread exited with code ${code}`, startOver: false });
    worker.once('error', (err) => died(failureOf(err)));
    worker.once('exit', diedEarly);
    worker.on('message', (msg: EmbeddedMessage) => {
      if ('failed' in msg) return died(msg);
      if ('ready' in msg) {
        worker.off('exit', diedEarly);
        return starting.resolve();
      }
      let closing: Promise<void> | undefined;
      resolve({
        ...msg.listening,
        started,
        close: () =>
          (closing ??= (() => {
            // Quitting never hangs on the service: every acknowledged write is committed already.
            const stuck = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
            worker.postMessage('close');
            return exited.then(() => clearTimeout(stuck));
          })()),
      });
    });
  });
}
