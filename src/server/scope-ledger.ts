import { narrowestScopes, sortedScopes } from '../model/scopes.js';
import type { Trace } from './journal.js';

/**
 * What the account's requests needed of a token's scopes, for
 * GET /__control/scopes and `serve --scopes-report`: counted apart from the
 * journal's ring, so a long run forgets nothing. Each request costs one
 * entry of a log of (journal id, kind) pairs, a kind being one token, one
 * operation and what it needed, had and was refused; the kinds themselves
 * are few.
 */

interface Kind {
  /** The token as the journal shows its first characters, without the ellipsis. */
  token: string;
  operation: string;
  needed: string[];
  /** For a request refused for a scope: what it needed and what the token had. */
  refused: { needed: string; had: string } | null;
  count: number;
}

export interface ScopesReport {
  needed: string[];
  narrowest: string;
  by_scope: Record<string, { operation: string; count: number }[]>;
  refused: { operation: string; count: number; needed: string; had: string }[];
}

const INITIAL_LOG = 1024;

export class ScopeLedger {
  private readonly kinds: Kind[] = [];
  private readonly byKey = new Map<string, number>();
  /** Journal id and kind index of each request, in order. */
  private log = new Float64Array(INITIAL_LOG * 2);
  private size = 0;

  /** Counts a request the journal recorded; one that matched no operation needed nothing. */
  count(trace: Trace): void {
    if (!trace.operation) return;
    const scopes = (trace.access ?? []).filter((d) => d.kind === 'scope');
    const refusal = scopes.find((d) => !d.allowed);
    const token = (trace.token ?? '').replace(/\u2026$/, '');
    const needed = sortedScopes(scopes.map((d) => d.needs));
    const refused = refusal ? { needed: refusal.needs, had: refusal.has } : null;
    const key = JSON.stringify([token, trace.operation, needed, refused]);
    let index = this.byKey.get(key);
    if (index === undefined) {
      index = this.kinds.push({ token, operation: trace.operation, needed, refused, count: 0 }) - 1;
      this.byKey.set(key, index);
    }
    this.kinds[index]!.count++;
    if (this.size * 2 === this.log.length) {
      const grown = new Float64Array(this.log.length * 2);
      grown.set(this.log);
      this.log = grown;
    }
    this.log[this.size * 2] = trace.id;
    this.log[this.size * 2 + 1] = index;
    this.size++;
  }

  /** The requests after journal entry `since` (all without it), of tokens whose first characters `token` starts with. */
  report(opts: { since?: number; token?: string } = {}): ScopesReport {
    const counts = new Map<Kind, number>();
    if (opts.since === undefined) for (const kind of this.kinds) counts.set(kind, kind.count);
    else {
      for (let i = this.firstAfter(opts.since); i < this.size; i++) {
        const kind = this.kinds[this.log[i * 2 + 1]!]!;
        counts.set(kind, (counts.get(kind) ?? 0) + 1);
      }
    }
    const prefix = opts.token;
    const chosen = [...counts].filter(([kind]) => prefix === undefined || (kind.token !== '' && prefix.startsWith(kind.token)));
    const byScope = new Map<string, Map<string, number>>();
    const refused = new Map<string, { operation: string; count: number; needed: string; had: string }>();
    for (const [kind, count] of chosen) {
      if (kind.refused) {
        const key = JSON.stringify([kind.operation, kind.refused.needed, kind.refused.had]);
        const entry = refused.get(key) ?? { operation: kind.operation, count: 0, ...kind.refused };
        entry.count += count;
        refused.set(key, entry);
      }
      for (const scope of kind.needed) {
        const ops = byScope.get(scope) ?? new Map<string, number>();
        ops.set(kind.operation, (ops.get(kind.operation) ?? 0) + count);
        byScope.set(scope, ops);
      }
    }
    const needed = sortedScopes(byScope.keys());
    return {
      needed,
      narrowest: narrowestScopes(needed),
      by_scope: Object.fromEntries(needed.map((scope) => [scope, [...byScope.get(scope)!].map(([operation, count]) => ({ operation, count }))])),
      refused: [...refused.values()],
    };
  }

  /** The log's first position after journal entry `since` (ids only grow). */
  private firstAfter(since: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.log[mid * 2]! <= since) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
