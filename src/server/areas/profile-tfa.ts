import { randomBytes } from 'node:crypto';
import { authenticator as defaultAuthenticator } from 'otplib';
import { NoBody, TfaConfirm } from '../../model/profile.js';
import { hashToken, type User } from '../auth.js';
import { badRequest } from '../errors.js';
import { bodyFor, type Router } from '../route.js';
import { isoSeconds } from '../../model/time.js';
import { currentUser, isExpired, profileEntity, profileEvent } from './profile-common.js';

/** Codes from the step before also pass, so a code typed as the 30 s step turns over is not refused. */
const authenticator = defaultAuthenticator.clone({ window: [1, 0] });

/** How long a new secret waits for its confirming code. */
const TFA_SECRET_TTL_MS = 60 * 60 * 1000;

const SCRATCH_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** 20 characters; 256 is a multiple of 32, so byte % 32 is unbiased. */
function scratchCode(): string {
  return [...randomBytes(20)].map((b) => SCRATCH_ALPHABET[b % 32]).join('');
}

/** The secrets are sealed (sealing.ts): the data file alone does not give them away. */
export interface TfaState {
  /** A secret handed out by tfa-enable, waiting for a confirming code. */
  _tfa_pending?: { secret: string; expiry: string };
  /** The confirmed secret and the hash of the single-use scratch code. */
  _tfa_secret?: string;
  _tfa_scratch?: string;
}

type TfaUser = User & TfaState;

function withoutTfa(user: TfaUser): User {
  const { _tfa_pending, _tfa_secret, _tfa_scratch, ...rest } = user;
  return rest;
}

/** Secret first, then a valid code confirms it and turns two-factor on; disable turns it off. */
export function tfaRoutes(r: Router): void {
  r.post('/profile/tfa-enable', 'account:read_write', (ctx) => {
    bodyFor(ctx, NoBody, 'create');
    const user = currentUser(ctx) as TfaUser;
    if (user.two_factor_auth) throw badRequest('Two-factor authentication is already enabled; disable it first to get a new secret');
    const pending = { secret: authenticator.generateSecret(), expiry: isoSeconds(ctx.store.clock.now() + TFA_SECRET_TTL_MS) };
    ctx.store.put('user', user.id, { ...user, _tfa_pending: { ...pending, secret: ctx.store.sealer.seal(pending.secret) } });
    return pending;
  });

  r.post('/profile/tfa-enable-confirm', 'account:read_write', (ctx) => {
    const { tfa_code } = bodyFor(ctx, TfaConfirm, 'create') as { tfa_code: string };
    const user = currentUser(ctx) as TfaUser;
    if (user.two_factor_auth) throw badRequest('Two-factor authentication is already enabled');
    const pending = user._tfa_pending;
    if (!pending || isExpired(pending, ctx.store.clock.now())) {
      throw badRequest('No two-factor secret is waiting for confirmation (or it expired); request one with POST /profile/tfa-enable', 'tfa_code');
    }
    if (!authenticator.check(tfa_code, ctx.store.sealer.unseal(pending.secret))) throw badRequest('tfa_code is not the current code for the two-factor secret', 'tfa_code');
    const scratch = scratchCode();
    ctx.store.put('user', user.id, { ...withoutTfa(user), two_factor_auth: true, _tfa_secret: pending.secret, _tfa_scratch: hashToken(scratch) });
    profileEvent(ctx, 'tfa_enabled', profileEntity(user));
    return { scratch };
  });

  // Lenient like upstream: disabling when it is already off answers {} and changes nothing visible.
  r.post('/profile/tfa-disable', 'account:read_write', (ctx) => {
    bodyFor(ctx, NoBody, 'create');
    const user = currentUser(ctx) as TfaUser;
    ctx.store.put('user', user.id, { ...withoutTfa(user), two_factor_auth: false });
    if (user.two_factor_auth) profileEvent(ctx, 'tfa_disabled', profileEntity(user));
  });
}
