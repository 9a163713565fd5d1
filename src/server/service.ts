import type { FastifyInstance } from 'fastify';
import { Store } from './store.js';
import { Simulation, type Speed } from './sim.js';
import { buildApp } from './app.js';
import { Accounts, type SeedKind } from './accounts.js';
import { BASE_ROOT, BETA_ROOT } from './roots.js';
import { seedAccount, ensureToken, revokeGenerated } from './seed/index.js';
import { newTokenValue, OWNER_ID, RESTRICTED_ID } from './auth.js';
import { openPort, type Port } from './port.js';
import { sealSecretsAtRest } from './secrets.js';
import { ApiError } from './errors.js';
import { openError } from './storage-errors.js';
import { sqliteCode } from './sqlite.js';

export interface ServiceOptions {
  host?: string;
  port?: number;
  /** A SQLite file, or :memory:. */
  data: string;
  seed?: SeedKind;
  /** The owner's token (scope *); random when absent. */
  token?: string;
  restrictedToken?: string;
  speed?: Speed;
  /** Refuse what 4.83.1 does not define (`serve --strict`); by default it is ignored and reported, as the real API does. */
  strict?: boolean;
  /**
   * A port that listens already, and this run's owner token (generated: it is
   * revoked when the run ends). The embedded demo's thread opens its port
   * before loading the service, so the app's first requests wait there.
   */
  listening?: { port: Port; token: string };
}

export interface RunningService {
  app: FastifyInstance;
  /** The primary account's store and simulation (the data file's). */
  store: Store;
  sim: Simulation;
  /** The primary account and the ones the control interface added. */
  accounts: Accounts;
  origin: string;
  baseUrl: string;
  betaUrl: string;
  token: string;
  restrictedToken: string;
  /** True when this start generated the tokens (they are printed once). */
  generatedTokens: boolean;
  close(): Promise<void>;
}

/** The store (seeded on first use), the tokens, and the routes answering on `port`; nothing is left open when it fails. */
async function serveOn(port: Port, opts: ServiceOptions, token: string, restrictedToken: string) {
  const store = new Store(opts.data);
  try {
    const sim = new Simulation(store, opts.speed ?? 'realistic');
    if (store.getMeta('seeded')) sealSecretsAtRest(store);
    const issued = store.tx(() => {
      if (!store.getMeta('seeded')) seedAccount(store, opts.seed ?? 'demo', sim);
      return [ensureToken(store, OWNER_ID, token, 'owner', !opts.token), ensureToken(store, RESTRICTED_ID, restrictedToken, 'restricted', !opts.restrictedToken)];
    });
    let handler: Parameters<Port['serve']>[0] | undefined;
    const accounts = new Accounts({ store, sim, controlToken: token, serveTokens: [token, restrictedToken], strict: opts.strict === true }, seedAccount);
    const app = buildApp(accounts, { server: (h) => ((handler = h), port.server) });
    await app.ready();
    port.serve(handler!);
    sim.start();
    sim.runDue();
    return { store, sim, accounts, app, issued };
  } catch (err) {
    store.close();
    // A storage failure while setting up (a lock held past the wait, a full disk) is the data file's to tell, not a request's.
    throw err instanceof ApiError && sqliteCode(err.cause) ? openError(opts.data, err.cause) : err;
  }
}

/**
 * Listens first (unless given a port that does), opens (and on first use
 * seeds) the store, then serves the API; requests that came meanwhile are
 * answered then.
 */
export async function startService(opts: ServiceOptions): Promise<RunningService> {
  const generated = !opts.token;
  const token = opts.token ?? opts.listening?.token ?? newTokenValue();
  const restrictedToken = opts.restrictedToken ?? newTokenValue();
  const port = opts.listening?.port ?? (await openPort(opts.host ?? '127.0.0.1', opts.port ?? 0));
  const origin = port.origin;
  const { store, sim, accounts, app, issued } = await serveOn(port, opts, token, restrictedToken).catch(async (err: unknown) => {
    await port.close();
    throw err;
  });
  let closed = false;
  return {
    app,
    store,
    sim,
    accounts,
    origin,
    baseUrl: origin + BASE_ROOT,
    betaUrl: origin + BETA_ROOT,
    token,
    restrictedToken,
    generatedTokens: generated,
    async close() {
      if (closed) return;
      closed = true;
      sim.stop();
      await app.close();
      await port.close();
      try {
        store.tx(() => revokeGenerated(store, issued));
      } finally {
        store.close();
      }
    },
  };
}
