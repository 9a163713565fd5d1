import type { Link } from '../api/client.js';
import { createStore } from 'zustand/vanilla';
import { scopeAllows } from '../model/scopes.js';
import type { GlobalGrants, GrantEntry, GrantKind, GrantsOf } from '../model/profile.js';
import type { ScopeReport } from '../api/scope-reports.js';

export type MessageKind = 'info' | 'success' | 'error';

export interface Message {
  text: string;
  kind: MessageKind;
  at: number;
}

export interface SessionState {
  /** The API base root in use. */
  endpoint: string;
  /** Running the embedded demo service. */
  embedded: boolean;
  profileName?: string;
  readOnly: boolean;
  refreshSeconds: number;
  /** Where Ctrl-S writes a list (--export-dir); the working folder when unset. */
  exportDir?: string;
  /** From GET /profile; undefined while loading. */
  user?: string;
  userError?: string;
  /** The token's scope string, from an answer's X-OAuth-Scopes or the token list; null while unknown (only refused scopes are marked then). */
  scopes: string | null;
  /** Scopes a server refused for while the whole set was unknown: each key needing one is refused at once. */
  refusedScopes: readonly string[];
  /** Whether the start's search for the scopes is over (X-OAuth-Scopes on the profile's answer, else the token list, answered or refused): the header then says when they stay unknown. */
  scopesSettled: boolean;
  /** Takes in what an answer told of the scopes. */
  learnScopes(report: ScopeReport): void;
  lastRefresh?: number;
  message?: Message;
  /** The last messages, oldest first: one that has faded can be read again (`:messages`). */
  messages: Message[];
  /** Managed services in the problem state, filled by the managed area; shown in the header when > 0. */
  problemCount?: number;
  /** High findings of the last audit computed (`:audit`); shown in the header when > 0. */
  auditHigh?: number;
  /** The server not answering, or the token refused, as the client last found (src/store/link.ts); absent while all is well. */
  link?: Exclude<Link, { state: 'up' }>;
  notify(text: string, kind?: MessageKind): void;
  clearMessage(): void;
  /** Why the token cannot do this, or null when it can (or it is not known); several scopes (space-separated) are all needed. */
  missingScope(scope: string | undefined): string | null;
  /** A restricted user's grants; null for an unrestricted user or while unknown (nothing is marked then). */
  grants: GrantsOf<GrantEntry> | null;
  /** Why this user may not change that entity (a read-only or missing grant), or null when it may or grants do not apply. */
  missingGrant(kind: GrantKind, id: number | string): string | null;
  /** Why this user may not create that kind of entity (the global add_* grant), or null. */
  missingAddGrant(add: AddGrant): string | null;
}

/** What scope marks depend on, for a view to redraw them when it changes: the scopes, or while they are unknown the refused ones. */
export const scopeKnowledge = (s: SessionState) => s.scopes ?? s.refusedScopes;

/** The global grants that allow creating entities. */
export type AddGrant = { [K in keyof GlobalGrants]: GlobalGrants[K] extends boolean ? K : never }[keyof GlobalGrants];

/** Messages kept for `:messages`. */
export const MESSAGE_HISTORY = 50;

export type SessionInit = Pick<SessionState, 'endpoint' | 'embedded' | 'readOnly' | 'refreshSeconds'> & { profileName?: string; exportDir?: string };

export function createSessionStore(init: SessionInit) {
  return createStore<SessionState>()((set, get) => ({
    ...init,
    scopes: null,
    refusedScopes: [],
    scopesSettled: false,
    grants: null,
    messages: [],
    notify: (text, kind = 'info') => {
      const message = { text, kind, at: Date.now() };
      set((s) => ({ message, messages: [...s.messages.slice(1 - MESSAGE_HISTORY), message] }));
    },
    clearMessage: () => set({ message: undefined }),
    learnScopes: (report) => {
      if ('scopes' in report) {
        if (get().scopes !== report.scopes) set({ scopes: report.scopes });
        return;
      }
      const fresh = report.missing.filter((m) => !get().refusedScopes.includes(m));
      if (fresh.length > 0) set((s) => ({ refusedScopes: [...s.refusedScopes, ...fresh] }));
    },
    missingScope: (scope) => {
      const { scopes, refusedScopes } = get();
      if (!scope) return null;
      // A refused read_only scope leaves its read_write out too.
      const refused = (s: string) => refusedScopes.includes(s) || refusedScopes.includes(s.replace(/:read_write$/, ':read_only'));
      const missing = scope.split(/\s+/).filter((s) => s && (scopes === null ? refused(s) : !scopeAllows(scopes, s)));
      return missing.length ? `needs ${missing.join(' and ')}` : null;
    },
    missingGrant: (kind, id) => {
      const { grants } = get();
      if (!grants) return null;
      const entry = grants[kind].find((g) => String(g.id) === String(id));
      if (entry?.permissions === 'read_write') return null;
      return entry?.permissions === 'read_only' ? 'read-only grant' : 'no grant';
    },
    missingAddGrant: (add) => {
      const { grants } = get();
      return grants && !grants.global[add] ? `needs the ${add} grant` : null;
    },
  }));
}

export type SessionStore = ReturnType<typeof createSessionStore>;
