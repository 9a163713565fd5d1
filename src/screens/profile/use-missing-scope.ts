import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';
import { scopeKnowledge } from '../../store/session.js';

/** Why the token cannot do what needs `scope` (for marking keys and menu entries), kept current as the scopes load. */
export function useMissingScope(scope: string): string | undefined {
  const { session } = useApp();
  useStore(session, scopeKnowledge);
  return session.getState().missingScope(scope) ?? undefined;
}
