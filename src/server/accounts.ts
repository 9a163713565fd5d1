import type { FastifyRequest } from 'fastify';
import { hashToken, issueToken, newTokenValue, OWNER_ID, RESTRICTED_ID } from './auth.js';
import { FaultRules } from './faults.js';
import { JOURNAL_SIZE, Journal } from './journal.js';
import { ScopeLedger } from './scope-ledger.js';
import { Simulation, type Speed } from './sim.js';
import { Store } from './store.js';
import { OBJECT_DATA_ROOT } from './roots.js';
import { isoSeconds } from '../model/time.js';

/**
 * Isolated accounts in one service. The primary account is the one `serve`
 * started (its data file, its tokens); the control interface adds others,
 * each with a store, simulation, fault rules and journal of its own, in
 * memory, ending with the process. A request belongs to the account of its
 * bearer token (a pre-signed URL names its account instead): the areas'
 * handlers see that account's store and simulation and nothing else.
 */

export const PRIMARY_ACCOUNT_ID = 1;
/** Accounts added past the primary: each holds a SQLite store in memory and a timer for its jobs. */
export const ACCOUNTS_MAX = 200;

/** How a new account starts: reference data only, or a lived-in account. */
export type SeedKind = 'demo' | 'empty';

/**
 * Seeds a new account's store (seed/index.ts). The service hands it in: the
 * demo is built with the areas' own functions, which this core piece must not
 * load (they import it).
 */
export type Seeder = (store: Store, kind: SeedKind, sim: Simulation) => void;

declare module 'fastify' {
  interface FastifyRequest {
    /** The account this request acts on: its token's, or the primary when the token is none of another's. */
    account: Account;
  }
}

export class Account {
  /** Set when the account is removed: a request that was already under way is answered as its token would be now, 401. */
  closed = false;
  readonly scopes = new ScopeLedger();
  readonly journal = new Journal(JOURNAL_SIZE, (trace) => this.scopes.count(trace));
  readonly faults = new FaultRules();
  private readonly cleanups = new Set<() => void>();

  constructor(
    readonly id: number,
    readonly services: Services,
    readonly created: string,
    /** Told after each write an account's request made, so the token index follows the tokens it created or revoked. */
    private readonly onWrite?: (account: Account) => void,
  ) {}

  get primary(): boolean {
    return this.id === PRIMARY_ACCOUNT_ID;
  }

  get store(): Store {
    return this.services.store;
  }

  wrote(): void {
    this.onWrite?.(this);
  }

  /** Runs `fn` when the account is removed (a journal stream ends); returns what cancels that. */
  onClose(fn: () => void): () => void {
    this.cleanups.add(fn);
    return () => this.cleanups.delete(fn);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const fn of this.cleanups) fn();
    this.cleanups.clear();
    this.faults.clear();
    this.services.sim.stop();
    this.store.close();
  }

  describe() {
    return {
      id: this.id,
      primary: this.primary,
      seed: this.store.getMeta('seeded') ?? null,
      speed: this.services.sim.speed,
      created: this.created,
    };
  }
}

export interface Services {
  store: Store;
  sim: Simulation;
  /** The account's control token: the owner's token serve printed, or the one an added account was made with. */
  controlToken?: string;
  /** The tokens this process answers the account with (owner, restricted): a snapshot's restore or a reset keeps them working. */
  serveTokens?: readonly string[];
  /** `serve --strict`: refuse fields 4.83.1 does not define, and nulls it does not allow, instead of ignoring them. */
  strict?: boolean;
}

export interface NewAccount {
  account: Account;
  token: string;
  restrictedToken: string;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Which account a token hash belongs to, for every account but the primary.
 * An account's tokens are read again after any write of its that touched
 * them (a token created or revoked, a snapshot restored, a reset), so a
 * request costs one hash and one lookup however many accounts there are.
 * Its control token stays its own even once revoked as an API token, as the
 * primary's does. The primary is not indexed: another service on its data
 * file may add tokens at any time, so its store stays the judge of every
 * other token.
 */
class TokenIndex {
  private readonly owners = new Map<string, Account>();
  private readonly held = new Map<Account, { stamp: string; hashes: string[] }>();

  find(hash: string): Account | undefined {
    return this.owners.get(hash);
  }

  sync(account: Account): void {
    const stamp = account.store.versionOf(['token']);
    if (this.held.get(account)?.stamp === stamp) return;
    this.drop(account);
    const hashes = account.store.db.prepare("SELECT key FROM rows WHERE kind = 'token' AND key IS NOT NULL").pluck().all() as string[];
    if (account.services.controlToken) hashes.push(hashToken(account.services.controlToken));
    for (const hash of hashes) this.owners.set(hash, account);
    this.held.set(account, { stamp, hashes });
  }

  drop(account: Account): void {
    for (const hash of this.held.get(account)?.hashes ?? []) {
      if (this.owners.get(hash) === account) this.owners.delete(hash);
    }
    this.held.delete(account);
  }
}

/** A token for an account's restricted user, issued in its store and shown once (an imported account without one gets one so). */
export function issueRestrictedToken(store: Store): string {
  const value = newTokenValue();
  issueToken(store, value, { user_id: RESTRICTED_ID, label: 'control account (restricted)', scopes: '*' });
  return value;
}

export class Accounts {
  readonly primary: Account;
  private readonly byId = new Map<number, Account>();
  private readonly tokens = new TokenIndex();
  private nextId = PRIMARY_ACCOUNT_ID + 1;

  constructor(
    primary: Services,
    private readonly seed: Seeder,
  ) {
    this.primary = new Account(PRIMARY_ACCOUNT_ID, primary, isoSeconds(Date.now()));
    this.byId.set(this.primary.id, this.primary);
  }

  /** The primary first, then the others in the order they were made. */
  list(): Account[] {
    return [...this.byId.values()];
  }

  get(id: number): Account | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }

  /** The account a bearer token belongs to; the primary for any other header, whose store then accepts or refuses it as before. */
  ofAuthorization(header: string | undefined): Account {
    // With no account added (the app's own service, most runs of serve) there is nothing to look up.
    if (this.byId.size === 1) return this.primary;
    const m = header ? BEARER.exec(header) : null;
    return (m && this.tokens.find(hashToken(m[1]!))) || this.primary;
  }

  /** A pre-signed URL names its account in `acct` (the primary's names none); its signature, checked later, is that account's. */
  ofRequest(req: FastifyRequest): Account {
    if (!req.url.startsWith(`${OBJECT_DATA_ROOT}/`)) return this.ofAuthorization(req.headers.authorization);
    const named = /[?&]acct=(\d{1,9})(?:&|$)/.exec(req.url);
    return (named && this.byId.get(Number(named[1]))) || this.primary;
  }

  /** A new account seeded as asked, with an owner token (its control token too) and a restricted user's token, made here and shown once. */
  create(seed: SeedKind, speed: Speed = this.primary.services.sim.speed): NewAccount {
    const token = newTokenValue();
    const store = new Store(':memory:');
    try {
      const sim = new Simulation(store, speed);
      const restrictedToken = store.tx(() => {
        this.seed(store, seed, sim);
        issueToken(store, token, { user_id: OWNER_ID, label: 'control account (owner)', scopes: '*' });
        return issueRestrictedToken(store);
      });
      return this.adopt(store, sim, token, restrictedToken);
    } catch (err) {
      store.close();
      throw err;
    }
  }

  /** Serves a store filled elsewhere (an imported account) as a new account, answering the tokens it holds for its owner and restricted user. */
  adopt(store: Store, sim: Simulation, token: string, restrictedToken: string): NewAccount {
    const services: Services = { store, sim, controlToken: token, serveTokens: [token, restrictedToken], strict: this.primary.services.strict };
    const account = new Account(this.nextId++, services, isoSeconds(Date.now()), (a) => this.tokens.sync(a));
    this.byId.set(account.id, account);
    this.tokens.sync(account);
    sim.start();
    return { account, token, restrictedToken };
  }

  /** Removes an account other than the primary: its tokens stop working at once, its jobs stop, its store is closed. */
  remove(account: Account): void {
    this.tokens.drop(account);
    this.byId.delete(account.id);
    account.close();
  }

  /** Closes every account but the primary, which its service closes. */
  closeAll(): void {
    for (const account of this.list()) if (!account.primary) this.remove(account);
  }
}
