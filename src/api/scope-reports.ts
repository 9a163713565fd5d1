import type { IncomingHttpHeaders } from 'node:http';
import { endpointScope } from '../model/scopes.js';
import { errorsOf } from './errors.js';

/** What one answer told of the token's scopes: all of them (X-OAuth-Scopes), or some it lacks (a refusal for a scope). */
export type ScopeReport = { scopes: string } | { missing: string[] };

const SCOPE_WORD = /\b[a-z_]+:read_(?:only|write)\b/g;

/**
 * Reads an answer for the token's scopes. A server that sends X-OAuth-Scopes
 * says them all; one that does not still refuses with a 403 for a scope the
 * token lacks: its reason names the scope ("missing scope vms:read_write"),
 * or X-Accepted-OAuth-Scopes does, or, for a reason that only blames the
 * OAuth token, the endpoint's own scope. A 403 for a grant (a restricted
 * user) says nothing of scopes.
 */
export function scopeReport(method: string, path: string, status: number, headers: IncomingHttpHeaders, body: unknown): ScopeReport | null {
  const told = headers['x-oauth-scopes'];
  if (typeof told === 'string') return { scopes: told };
  if (status !== 403) return null;
  const reason = errorsOf(body)
    .map((e) => e.reason)
    .join(' ');
  if (!/oauth|scope/i.test(reason)) return null;
  const accepted = headers['x-accepted-oauth-scopes'];
  const named = reason.match(SCOPE_WORD);
  const needed = named ?? (typeof accepted === 'string' ? (accepted.match(SCOPE_WORD) ?? []) : [endpointScope(method, path)].filter((s) => s !== undefined));
  // Of several scopes an endpoint accepts, the token may lack any one: only a refusal that names them, or a single one, is sure.
  const sure = named !== null || needed.length === 1;
  return sure && needed.length > 0 ? { missing: [...new Set(needed)] } : null;
}
