import { describe, expect, it } from 'vitest';
import { scopeReport } from '../../src/api/scope-reports.js';
import { createSessionStore } from '../../src/store/session.js';

const refusal = (reason: string) => ({ errors: [{ reason }] });

describe('what an answer tells of the token scopes', () => {
  it('X-OAuth-Scopes says them all, on any answer', () => {
    expect(scopeReport('GET', '/vm/instances', 200, { 'x-oauth-scopes': 'vms:read_only' }, {})).toEqual({ scopes: 'vms:read_only' });
    expect(scopeReport('GET', '/profile/tokens', 403, { 'x-oauth-scopes': '' }, refusal('…'))).toEqual({ scopes: '' });
  });

  it('without it, a refusal for a scope names what is missing: the reason, else one accepted scope, else the endpoint', () => {
    expect(scopeReport('POST', '/vm/instances', 403, {}, refusal('Your OAuth token is not authorized to use this endpoint (missing scope vms:read_write)'))).toEqual({ missing: ['vms:read_write'] });
    expect(scopeReport('POST', '/vm/instances', 403, { 'x-accepted-oauth-scopes': 'vms:read_write' }, refusal('Your OAuth token is not authorized to use this endpoint.'))).toEqual({ missing: ['vms:read_write'] });
    expect(scopeReport('DELETE', '/nodebalancers/4', 403, {}, refusal('Your OAuth token is not authorized to use this endpoint.'))).toEqual({ missing: ['nodebalancers:read_write'] });
  });

  it('of two accepted scopes the token may lack either: nothing is marked on a guess', () => {
    expect(scopeReport('POST', '/networking/ipv4/assign', 403, { 'x-accepted-oauth-scopes': 'ips:read_write vms:read_write' }, refusal('Your OAuth token is not authorized to use this endpoint.'))).toBeNull();
    expect(scopeReport('POST', '/networking/ipv4/assign', 403, {}, refusal('Your OAuth token is not authorized to use this endpoint (missing scope ips:read_write and vms:read_write)'))).toEqual({ missing: ['ips:read_write', 'vms:read_write'] });
  });

  it('a refusal for a grant (a restricted user), another status, or a body that is not the API’s says nothing of scopes', () => {
    expect(scopeReport('PUT', '/vm/instances/1', 403, {}, refusal('You have read-only access to this vm'))).toBeNull();
    expect(scopeReport('GET', '/vm/instances', 500, {}, refusal('OAuth trouble'))).toBeNull();
    expect(scopeReport('GET', '/vm/instances', 403, {}, '<html>Forbidden</html>')).toBeNull();
    expect(scopeReport('GET', '/vm/instances', 200, {}, {})).toBeNull();
  });
});

describe('the session’s scope knowledge', () => {
  const session = () => createSessionStore({ endpoint: 'http://x/v4', embedded: false, readOnly: false, refreshSeconds: 5 });

  it('while the scopes are unknown, only a refused scope is missing; a refused read_only leaves its read_write out too', () => {
    const s = session();
    expect(s.getState().missingScope('vms:read_write')).toBeNull();
    s.getState().learnScopes({ missing: ['vms:read_write'] });
    expect(s.getState().missingScope('vms:read_write')).toBe('needs vms:read_write');
    expect(s.getState().missingScope('vms:read_only')).toBeNull();
    s.getState().learnScopes({ missing: ['images:read_only'] });
    expect(s.getState().missingScope('images:read_write')).toBe('needs images:read_write');
    s.getState().learnScopes({ missing: ['vms:read_write'] });
    expect(s.getState().refusedScopes).toEqual(['vms:read_write', 'images:read_only']);
  });

  it('once the scopes are told, they decide', () => {
    const s = session();
    s.getState().learnScopes({ missing: ['vms:read_write'] });
    s.getState().learnScopes({ scopes: '*' });
    expect(s.getState().missingScope('vms:read_write')).toBeNull();
    s.getState().learnScopes({ scopes: 'vms:read_only' });
    expect(s.getState().missingScope('vms:read_write ips:read_write')).toBe('needs vms:read_write and ips:read_write');
  });
});
