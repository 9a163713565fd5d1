import type { FastifyInstance } from 'fastify';
import { defineResource, validate } from '../../model/schema.js';
import { issueRestrictedToken, type Accounts } from '../accounts.js';
import { ApiError, badRequest, forbidden } from '../errors.js';
import { DEFAULT_OBJECTS, importAccount } from '../import/import-account.js';
import { sourceRoots } from '../import/source-roots.js';
import { Source } from '../import/source.js';
import { CONTROL_PREFIX } from '../request-hooks.js';
import { Simulation } from '../sim.js';
import { Store } from '../store.js';
import { sendError } from '../route.js';
import { checkControlRequest } from './control.js';
import { accountRoots, checkRoom } from './control-accounts.js';

/**
 * POST /__control/import: `vmtui import` into a new isolated account of this
 * service, answered when done as account creation answers. The service then
 * reads another server, so only the primary's control token may ask, one
 * import at a time, to the roots given only, each answer and the whole
 * import bounded.
 */

const ImportRequest = defineResource('import', {
  from: { kind: 'string', title: 'Base root', required: true, maxLength: 2048 },
  token: { kind: 'string', title: 'Token', required: true, minLength: 1, maxLength: 256 },
  beta_url: { kind: 'string', title: 'Beta root', maxLength: 2048 },
  objects: { kind: 'integer', title: 'Object names per bucket', min: 0, max: 100_000 },
});

/** How long an import may take before it is given up. */
const IMPORT_TIMEOUT_MS = 10 * 60_000;
/** The largest answer taken from the source (a page of 100 records is tens of kilobytes). */
const ANSWER_MAX_BYTES = 4 * 1024 * 1024;

export function mountControlImport(app: FastifyInstance, accounts: Accounts): void {
  let running = false;
  app.post(`${CONTROL_PREFIX}/import`, async (req, reply) => {
    let store: Store | undefined;
    try {
      const { account } = req;
      checkControlRequest(req);
      if (!account.primary) throw forbidden("Accounts are imported with the primary account's control token only");
      const { value, errors } = validate(ImportRequest, req.body ?? {}, { mode: 'create', reader: { strict: true, ignored: [] } });
      if (errors.length > 0) throw new ApiError(400, errors);
      const roots = sourceRoots(value.from as string, value.beta_url as string | undefined, { from: 'from', beta: 'beta_url' });
      if ('problem' in roots) throw badRequest(roots.problem, roots.field === 'from' ? 'from' : 'beta_url');
      checkRoom(accounts);
      if (running) throw new ApiError(429, [{ reason: 'An import is under way; try again when it is done' }], { 'Retry-After': '5' });
      running = true;
      try {
        store = new Store(':memory:');
        const sim = new Simulation(store, account.services.sim.speed);
        const source = new Source({ ...roots, token: value.token as string, maxBytes: ANSWER_MAX_BYTES, signal: AbortSignal.timeout(IMPORT_TIMEOUT_MS) });
        const report = await importAccount(store, sim, source, roots.base, { objects: (value.objects as number | undefined) ?? DEFAULT_OBJECTS });
        if (report.records === 0) {
          const why = report.skipped.map((s) => `${s.area}: ${s.reason}`).slice(0, 3).join('; ');
          throw new ApiError(400, [{ field: 'from', reason: `Nothing could be read from ${roots.base} (${why})` }]);
        }
        const imported = store;
        const restrictedToken = report.restrictedToken ?? imported.tx(() => issueRestrictedToken(imported));
        const made = accounts.adopt(imported, sim, report.token, restrictedToken);
        store = undefined;
        return reply.code(201).send({ ...made.account.describe(), token: made.token, restricted_token: made.restrictedToken, ...accountRoots(req) });
      } finally {
        running = false;
      }
    } catch (err) {
      store?.close();
      if (err instanceof ApiError) return sendError(reply, err);
      throw err;
    }
  });
}
