import { randomInt } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { FaultAction } from '../model/faults.js';
import type { FaultRule, FaultRuleInput } from './library-api.js';
import { isoSeconds } from '../model/time.js';
import { mulberry32 } from './prng.js';

/**
 * Faults on demand: rules that make the service fail the way a real network
 * and a real provider do (an error, a 429, latency, a dropped connection, a
 * malformed or truncated body), on the requests they match, repeatably.
 */

/** A rule as kept: what `POST /__control/faults` takes (the library's declared input), its defaults filled in. */
export type FaultSpec = FaultRuleInput & Required<Pick<FaultRuleInput, 'method' | 'only_when_named'>>;

/** What a request gets from the rule that hit it. */
export interface Fault {
  rule: number;
  action: FaultAction;
  status: number;
  reason: string;
  retryAfter: number;
  latencyMs: number;
}

/** A path glob as a regex: `*` any run of characters, `/` included; everything else literal. */
const globRegex = (glob: string) => new RegExp(`^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 's');

class Rule {
  hits = 0;
  matched = 0;
  private readonly pattern: RegExp;
  private readonly roll: () => number;
  readonly seed: number;
  readonly probability: number;
  readonly created = Date.now();
  readonly expires: number | null;

  constructor(
    readonly id: number,
    readonly spec: FaultSpec,
  ) {
    this.pattern = globRegex(spec.path);
    this.probability = spec.probability ?? 1;
    // A rule without a seed gets one, shown in the listing, so a run that found something can be repeated.
    this.seed = spec.seed ?? randomInt(0, 0xffff_ffff);
    this.roll = mulberry32(this.seed);
    this.expires = spec.expires_in === undefined ? null : this.created + spec.expires_in * 1000;
  }

  get remaining(): number | null {
    return this.spec.count === undefined ? null : Math.max(0, this.spec.count - this.hits);
  }

  active(now: number): boolean {
    return this.remaining !== 0 && (this.expires === null || now < this.expires);
  }

  matches(method: string, path: string): boolean {
    return (this.spec.method === '*' || this.spec.method === method) && this.pattern.test(path);
  }

  /** One matching request: rolls the rule's own sequence (a named request too, so a run stays repeatable) and counts a hit. */
  tryHit(): Fault | undefined {
    this.matched++;
    if (this.probability < 1 && this.roll() >= this.probability) return undefined;
    this.hits++;
    const { action, spec } = this;
    const status = action === 'rate_limit' ? 429 : (spec.status ?? 500);
    return {
      rule: this.id,
      action,
      status,
      reason: spec.reason ?? (action === 'rate_limit' ? 'Too many requests' : `${STATUS_CODES[status] ?? 'Error'} (fault rule ${this.id})`),
      retryAfter: spec.retry_after ?? 1,
      latencyMs: spec.latency_ms ?? 0,
    };
  }

  get action(): FaultAction {
    return this.spec.action;
  }

  present(now: number): FaultRule {
    const { spec } = this;
    return {
      id: this.id,
      method: spec.method,
      path: spec.path,
      action: spec.action,
      ...(spec.action === 'error' ? { status: spec.status ?? 500, reason: spec.reason ?? null } : {}),
      ...(spec.action === 'rate_limit' ? { retry_after: spec.retry_after ?? 1 } : {}),
      latency_ms: spec.latency_ms ?? 0,
      probability: this.probability,
      seed: this.seed,
      count: spec.count ?? null,
      remaining: this.remaining,
      expires: this.expires === null ? null : isoSeconds(this.expires),
      only_when_named: spec.only_when_named,
      active: this.active(now),
      matched: this.matched,
      hits: this.hits,
      created: isoSeconds(this.created),
    };
  }
}

/** The header that applies one rule to one request. */
export const FAULT_HEADER = 'x-vm-fault';

/** Rules kept past this many are refused: each is checked against every request. */
export const FAULT_RULES_MAX = 100;

export class FaultRules {
  private readonly rules = new Map<number, Rule>();
  private nextId = 1;

  /** True when no rule exists: the request path skips the rest. */
  get empty(): boolean {
    return this.rules.size === 0;
  }

  get size(): number {
    return this.rules.size;
  }

  add(spec: FaultSpec) {
    const rule = new Rule(this.nextId++, spec);
    this.rules.set(rule.id, rule);
    return rule.present(Date.now());
  }

  list() {
    const now = Date.now();
    return [...this.rules.values()].map((r) => r.present(now));
  }

  get(id: number) {
    return this.rules.get(id)?.present(Date.now());
  }

  remove(id: number): boolean {
    return this.rules.delete(id);
  }

  clear(): void {
    this.rules.clear();
  }

  /** Whether `id` names a rule (active or not): a request naming none is the client's mistake. */
  has(id: number): boolean {
    return this.rules.has(id);
  }

  /**
   * The fault for one request, if any. A request naming a rule
   * (`X-Vm-Fault: <id>`) is considered by that rule only, whatever its method
   * and path; any other request by every active rule not kept for naming,
   * in the order they were added, the first hit winning.
   */
  pick(method: string, path: string, named: number | undefined): Fault | undefined {
    const now = Date.now();
    if (named !== undefined) {
      const rule = this.rules.get(named);
      return rule?.active(now) ? rule.tryHit() : undefined;
    }
    for (const rule of this.rules.values()) {
      if (rule.spec.only_when_named || !rule.active(now) || !rule.matches(method, path)) continue;
      const fault = rule.tryHit();
      if (fault) return fault;
    }
    return undefined;
  }
}
