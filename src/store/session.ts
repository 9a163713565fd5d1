import { createStore } from 'zustand/vanilla';
import { scopeAllows } from '../server/auth.js';

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
  /** From GET /profile; undefined while loading. */
  user?: string;
  userError?: string;
  /** The token's scope string; null when it could not be determined (nothing is marked then). */
  scopes: string | null;
  lastRefresh?: number;
  message?: Message;
  /** Managed services in the problem state, filled by the managed area; shown in the header when > 0. */
  problemCount?: number;
  notify(text: string, kind?: MessageKind): void;
  clearMessage(): void;
  /** Why the token cannot do this, or null when it can (or its scopes are unknown); several scopes (space-separated) are all needed. */
  missingScope(scope: string | undefined): string | null;
}

export type SessionInit = Pick<SessionState, 'endpoint' | 'embedded' | 'readOnly' | 'refreshSeconds'> & { profileName?: string };

export function createSessionStore(init: SessionInit) {
  return createStore<SessionState>()((set, get) => ({
    ...init,
    scopes: null,
    notify: (text, kind = 'info') => set({ message: { text, kind, at: Date.now() } }),
    clearMessage: () => set({ message: undefined }),
    missingScope: (scope) => {
      const { scopes } = get();
      if (!scope || scopes === null) return null;
      const missing = scope.split(/\s+/).filter((s) => s && !scopeAllows(scopes, s));
      return missing.length ? `needs ${missing.join(' and ')}` : null;
    },
  }));
}

export type SessionStore = ReturnType<typeof createSessionStore>;
