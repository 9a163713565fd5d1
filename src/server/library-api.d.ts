// vmtui/service: the Account Infrastructure API 4.83.1 service as a library for test suites (docs/testing.md).
// Kept by hand: the build ships it as dist/service.d.ts, and src/server/library.ts and the service's
// fault rules (faults.ts) are typed by it, so the typecheck fails when they part.

export type SeedKind = 'empty' | 'demo';
export type Speed = 'instant' | 'realistic';

export interface StartOptions {
  /** A SQLite file (made 0600, kept when the service closes), or ':memory:' (the default): a throwaway account. */
  data?: string;
  /** What a new data file starts with: 'empty' (the default: reference data only) or 'demo' (a lived-in account). */
  seed?: SeedKind;
  /** 'instant' (the default: transitions complete at once) or 'realistic' (they take seconds, as the real API's do). */
  speed?: Speed;
  /** The owner's token (scope *), also the control token: 1 to 256 printable characters; random when absent. */
  token?: string;
  /** Refuse request fields 4.83.1 does not define, as `vmtui serve --strict` does. */
  strict?: boolean;
}

export interface SnapshotInfo {
  name: string;
  created: string;
  /** Stored rows the snapshot holds. */
  size: number;
}

export interface ClockState {
  /** The account's time, ISO 8601 with milliseconds. */
  now: string;
  frozen: boolean;
  offset_seconds: number;
}

export type FaultAction = 'error' | 'rate_limit' | 'latency' | 'drop' | 'malformed' | 'truncate';

/** A fault rule as `POST /__control/faults` takes it (see docs/testing.md). */
export interface FaultRuleInput {
  /** A glob over the request's path without the query; `*` is any run of characters, `/` included. */
  path: string;
  action: FaultAction;
  method?: '*' | 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** With action error: 400–599 (default 500), and the reason answered. */
  status?: number;
  reason?: string;
  /** With action rate_limit: the Retry-After seconds (default 1). */
  retry_after?: number;
  latency_ms?: number;
  /** 0–1 (default 1), drawn from the rule's own generator seeded by `seed`. */
  probability?: number;
  seed?: number;
  /** Only the next N hits. */
  count?: number;
  expires_in?: number;
  /** Applies only to requests naming the rule in `X-Vm-Fault: <id>`. */
  only_when_named?: boolean;
}

/** A fault rule as the service answers it. */
export interface FaultRule {
  id: number;
  method: string;
  path: string;
  action: FaultAction;
  status?: number;
  reason?: string | null;
  retry_after?: number;
  latency_ms: number;
  probability: number;
  seed: number;
  count: number | null;
  remaining: number | null;
  expires: string | null;
  matched: number;
  hits: number;
  active: boolean;
  only_when_named: boolean;
  created: string;
}

/** An account `createAccount` made: its tokens are shown this once. */
export interface CreatedAccount {
  id: number;
  primary: boolean;
  seed: SeedKind;
  speed: Speed;
  created: string;
  /** The account's owner token (scope *), also its control token. */
  token: string;
  restricted_token: string;
  base_url: string;
  beta_url: string;
}

/** The control interface (`/__control/…`) of the primary account, each call one request answering what the service answers. */
export interface Control {
  /** `POST /__control/snapshots`: saves the whole account under `name` (a ControlError 409 when the name is taken). */
  snapshot(name: string): Promise<SnapshotInfo>;
  /** `POST /__control/snapshots/{name}/restore`: brings the account back as it was saved. */
  restore(name: string): Promise<SnapshotInfo>;
  /** `POST /__control/reset`: starts the account over from a seed. */
  reset(seed: SeedKind): Promise<{ seed: SeedKind }>;
  /** `POST /__control/clock`: moves the account's clock forward, running what falls due on the way. */
  advanceClock(seconds: number): Promise<ClockState>;
  /** `POST /__control/faults`: adds a fault rule. */
  addFault(rule: FaultRuleInput): Promise<FaultRule>;
  /** `DELETE /__control/faults`: removes every fault rule. */
  clearFaults(): Promise<void>;
  /** `POST /__control/accounts`: another isolated account on the same service (`speed`: by default the service's). */
  createAccount(options: { seed: SeedKind; speed?: Speed }): Promise<CreatedAccount>;
}

export interface Service {
  /** The API's base root, e.g. http://127.0.0.1:40123/v4. */
  baseUrl: string;
  /** The beta root, e.g. http://127.0.0.1:40123/v4beta. */
  betaUrl: string;
  /** The owner's token (scope *). */
  token: string;
  /** The restricted user's token (no grants until the owner gives some). */
  restrictedToken: string;
  control: Control;
  /** Stops the service: its port closes, added accounts end, a data file is closed (and kept). */
  close(): Promise<void>;
}

/** What a control call got instead of a success: the HTTP status and the service's errors. */
export declare class ControlError extends Error {
  constructor(message: string, status: number, errors: { field?: string; reason: string }[]);
  readonly status: number;
  readonly errors: { field?: string; reason: string }[];
}

/**
 * Starts the service in this process on a free loopback port. Resolves once it answers requests;
 * rejects with a clear message on a bad option or a data file it cannot open.
 */
export declare function startService(options?: StartOptions): Promise<Service>;
