import { describe, expect, it } from 'vitest';
import { Token } from '../../../src/model/tokens.js';
import { validate } from '../../../src/model/schema.js';
import { fingerprint, keyShort } from '../../../src/screens/profile/ssh-key-text.js';
import { scopeStringOf, TokenCreateForm, tokenBody } from '../../../src/screens/profile/token-form.js';
import { browserOf } from '../../../src/screens/profile/user-agent.js';
import { preferencesProblem } from '../../../src/model/profile.js';
import { TEST_KEY, TEST_KEY_FINGERPRINT } from './harness.js';

describe('new-token form', () => {
  it('joins the choices into a scope string the Token model accepts, * winning', () => {
    expect(scopeStringOf({ all: false, account: 'read_only', vms: 'read_write', ips: 'none' })).toBe('account:read_only vms:read_write');
    expect(scopeStringOf({ all: true, account: 'read_only' })).toBe('*');
    expect(validate(Token, tokenBody({ label: 'x', scopes: { vms: 'read_only' } }), { mode: 'create' }).errors).toEqual([]);
  });

  it('reports no scopes chosen and a past expiry through the Token model’s rules', () => {
    const { errors } = validate(TokenCreateForm, { label: 'x', expiry: '2001-01-01T00:00:00', scopes: { vms: 'none' } }, { mode: 'create' });
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'scopes', reason: 'scopes must name at least one scope, or *' },
        { field: 'expiry', reason: 'expiry must be in the future' },
      ]),
    );
  });
});

describe('display helpers', () => {
  it('fingerprints a key as ssh-keygen -l does', () => {
    expect(fingerprint(TEST_KEY)).toBe(TEST_KEY_FINGERPRINT);
    expect(keyShort(TEST_KEY)).toBe('ssh-ed25519 …iA+j78AtZs');
  });

  it('names browsers', () => {
    expect(browserOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox 128 on macOS');
    expect(browserOf('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36')).toBe('Chrome 126 on Linux');
    expect(browserOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1')).toBe(
      'Safari 17 on iOS',
    );
    expect(browserOf('something-else/1')).toBe('something-else/1');
  });

  it('holds preferences to the service’s rule: an object of at most 64 KiB', () => {
    expect(preferencesProblem({ a: 1 })).toBeNull();
    expect(preferencesProblem([1])).toBe('Preferences must be a JSON object');
    expect(preferencesProblem(null)).toBe('Preferences must be a JSON object');
    expect(preferencesProblem({ big: 'x'.repeat(70_000) })).toBe('Preferences must be at most 64 KiB of JSON');
  });
});
