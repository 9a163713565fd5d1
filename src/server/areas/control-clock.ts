import type { FastifyInstance } from 'fastify';
import { defineResource, validate } from '../../model/schema.js';
import { CLOCK_END_MS } from '../clock.js';
import { assertValid, badRequest } from '../errors.js';
import type { Ctx } from '../route.js';
import { mountControlRoutes } from './control.js';

/**
 * The account's clock under /__control/clock: read it, move it forward
 * (running what falls due on the way, see Simulation.advance), stop it or let
 * it run. The clock itself is clock.ts.
 */

const ADVANCE_MAX_SECONDS = 10 * 365 * 24 * 60 * 60;

const ClockChange = defineResource('clock', {
  // A millisecond is the clock's resolution.
  advance_seconds: { kind: 'number', title: 'Advance (seconds)', min: 0.001, max: ADVANCE_MAX_SECONDS },
  frozen: { kind: 'boolean', title: 'Frozen' },
});

/** Read strictly, whatever `serve --strict` says: a misspelt field taken as absent would leave a test's clock where it was. */
function clockChange(ctx: Ctx): { advance_seconds?: number; frozen?: boolean } {
  const { value, errors } = validate(ClockChange, ctx.body ?? {}, { mode: 'create', reader: { strict: true, ignored: [] } });
  assertValid(errors);
  if (value.advance_seconds === undefined && value.frozen === undefined) throw badRequest('Send advance_seconds, frozen, or both');
  return value;
}

function changeClock(ctx: Ctx): unknown {
  const change = clockChange(ctx);
  const clock = ctx.store.clock;
  const ms = Math.round((change.advance_seconds ?? 0) * 1000);
  const room = CLOCK_END_MS - clock.now();
  if (ms > room) {
    throw badRequest(`The clock stops at ${new Date(CLOCK_END_MS).toISOString()}: it can go ${Math.max(0, Math.floor(room / 1000))} seconds further`, 'advance_seconds');
  }
  // Frozen first: a frozen clock then moves by exactly the advance.
  if (change.frozen !== undefined) clock.setFrozen(change.frozen);
  if (ms > 0) ctx.sim.advance(ms);
  return clock.state();
}

export function mountControlClock(app: FastifyInstance): void {
  mountControlRoutes(app, [
    ['GET', '/clock', (ctx) => ctx.store.clock.state()],
    ['POST', '/clock', changeClock],
  ]);
}
