import { createStore } from 'zustand/vanilla';
import { scopeAllows } from '../model/scopes.js';
import type { GlobalGrants, GrantEntry, GrantKind, GrantsOf } from '../model/profile.js';

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
  /** The token's scope string; null when it could not be determined (nothing is marked then). */
  scopes: string | null;
  lastRefresh?: number;
  message?: Message;
  /** The last messages, oldest first: one that has faded can be read again (`:messages`). */
  messages: Message[];
  /** Managed services in the problem state, filled by the managed area; shown in the header when > 0. */
  problemCount?: number;
  notify(text: string, kind?: MessageKind): void;
  clearMessage(): void;
  /** Why the token cannot do this, or null when it can (or its scopes are unknown); several scopes (space-separated) are all needed. */
  missingScope(scope: string | undefined): string | null;
  /** A restricted user's grants; null for an unrestricted user or while unknown (nothing is marked then). */
  grants: GrantsOf<GrantEntry> | null;
  /** Why this user may not change that entity (a read-only or missing grant), or null when it may or grants do not apply. */
  missingGrant(kind: GrantKind, id: number | string): string | null;
  /** Why this user may not create that kind of entity (the global add_* grant), or null. */
  missingAddGrant(add: AddGrant): string | null;
}

/** The global grants that allow creating entities. */
export type AddGrant = { [K in keyof GlobalGrants]: GlobalGrants[K] extends boolean ? K : never }[keyof GlobalGrants];

/** Messages kept for `:messages`. */
export const MESSAGE_HISTORY = 50;

export type SessionInit = Pick<SessionState, 'endpoint' | 'embedded' | 'readOnly' | 'refreshSeconds'> & { profileName?: string; exportDir?: string };

export function createSessionStore(init: SessionInit) {
  return createStore<SessionState>()((set, get) => ({
    ...init,
    scopes: null,
    grants: null,
    messages: [],
    notify: (text, kind = 'info') => {
      const message = { text, kind, at: Date.now() };
      set((s) => ({ message, messages: [...s.messages.slice(1 - MESSAGE_HISTORY), message] }));
    },
    clearMessage: () => set({ message: undefined }),
    missingScope: (scope) => {
      const { scopes } = get();
      if (!scope || scopes === null) return null;
      const missing = scope.split(/\s+/).filter((s) => s && !scopeAllows(scopes, s));
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
