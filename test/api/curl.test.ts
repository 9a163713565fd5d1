import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCommand } from '../../src/api/curl.js';

describe('curlCommand', () => {
  it('never carries the token: it names $VM_TOKEN, which the shell expands', () => {
    const line = curlCommand({ method: 'GET', url: 'http://127.0.0.1:8484/v4/vm/instances?page=2', headers: { authorization: 'Bearer secret-token-value' } });
    expect(line).not.toContain('secret-token-value');
    expect(line).toContain('"Authorization: Bearer $VM_TOKEN"');
  });

  it('quotes bodies and headers so the shell passes them through unchanged', () => {
    const body = JSON.stringify({ label: "it's $HOME `x`", tags: ['a b'] });
    const line = curlCommand({ method: 'POST', url: 'http://h/v4/vm/instances', headers: { 'x-filter': '{"label":"a b"}' }, body });
    // Run through a real shell: `set --` then print each word.
    const out = execFileSync('sh', ['-c', `set -- ${line}; for w in "$@"; do printf '%s\\n' "$w"; done`], { env: { VM_TOKEN: 'tok' } }).toString().split('\n');
    expect(out).toContain(body);
    expect(out).toContain('x-filter: {"label":"a b"}');
    expect(out).toContain('Authorization: Bearer tok');
    expect(out).toContain('-X');
  });

  it('leaves a masked secret of the body to the shell: "$VM_ROOT_PASS" expands, nothing else in the body does', () => {
    const body = JSON.stringify({ label: 'costs $5', root_pass: '$VM_ROOT_PASS', image: 'vm/debian12' });
    const line = curlCommand({ method: 'POST', url: 'http://h/v4/vm/instances', body, variables: ['VM_ROOT_PASS'] });
    const out = execFileSync('sh', ['-c', `set -- ${line}; for w in "$@"; do printf '%s\\n' "$w"; done`], { env: { VM_TOKEN: 'tok', VM_ROOT_PASS: 'S3cret pass!' } }).toString().split('\n');
    expect(out).toContain(JSON.stringify({ label: 'costs $5', root_pass: 'S3cret pass!', image: 'vm/debian12' }));
  });
});

