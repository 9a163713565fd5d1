import type { FastifyInstance } from 'fastify';
import { Store } from './store.js';
import { Simulation, type Speed } from './sim.js';
import { buildApp, BASE_ROOT, BETA_ROOT } from './app.js';
import { seedAccount, ensureToken, revokeGenerated, OWNER_ID, RESTRICTED_ID, type SeedKind } from './seed/index.js';
import { newTokenValue } from './auth.js';

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
  logger?: boolean;
}

export interface RunningService {
  app: FastifyInstance;
  store: Store;
  sim: Simulation;
  origin: string;
  baseUrl: string;
  betaUrl: string;
  token: string;
  restrictedToken: string;
  /** True when this start generated the tokens (they are printed once). */
  generatedTokens: boolean;
  close(): Promise<void>;
}

/** Opens (and on first use seeds) the store, then serves the API on a loopback port. */
export async function startService(opts: ServiceOptions): Promise<RunningService> {
  const store = new Store(opts.data);
  const sim = new Simulation(store, opts.speed ?? 'realistic');
  const generated = !opts.token;
  const token = opts.token ?? newTokenValue();
  const restrictedToken = opts.restrictedToken ?? newTokenValue();
  const issued = store.tx(() => {
    if (!store.getMeta('seeded')) seedAccount(store, opts.seed ?? 'demo', sim);
    return [ensureToken(store, OWNER_ID, token, 'owner', generated), ensureToken(store, RESTRICTED_ID, restrictedToken, 'restricted', !opts.restrictedToken)];
  });
  const services = { store, sim, controlToken: token };
  const app = buildApp(services, { logger: opts.logger });
  await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  const host = (opts.host ?? '127.0.0.1').includes(':') ? `[${opts.host}]` : (opts.host ?? '127.0.0.1');
  const origin = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  sim.start();
  sim.runDue();
  let closed = false;
  return {
    app,
    store,
    sim,
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
      store.tx(() => revokeGenerated(store, issued));
      store.close();
    },
  };
}
