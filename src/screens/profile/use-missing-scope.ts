import { useStore } from 'zustand';
import { useApp } from '../../app/context.js';

/** Why the token cannot do what needs `scope` (for marking keys and menu entries), kept current as the scopes load. */
export function useMissingScope(scope: string): string | undefined {
  const { session } = useApp();
  const scopes = useStore(session, (s) => s.scopes);
  return scopes === null ? undefined : (session.getState().missingScope(scope) ?? undefined);
}
