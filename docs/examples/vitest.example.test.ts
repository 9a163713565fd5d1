// A test file using the service of vitest.global-setup.ts. Files run in parallel, so each makes an
// account of its own (POST /__control/accounts) and sees only its own data.
import { beforeAll, expect, inject, test } from 'vitest';

const { baseUrl, token: primaryToken } = inject('vmtui');
const control = new URL('/__control', baseUrl).href;
let token: string;

beforeAll(async () => {
  const res = await fetch(`${control}/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${primaryToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ seed: 'empty' }),
  });
  ({ token } = await res.json());
});

const api = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};

test('creates an instance, which is running at once', async () => {
  const made = await api('POST', '/vm/instances', { region: 'us-east', type: 'g6-nanode-1', label: 'web-1', image: 'vm/debian12', root_pass: 'A-long-test-passw0rd!' });
  expect(made.status).toBe(200);
  expect((await api('GET', `/vm/instances/${made.body.id}`)).body.status).toBe('running');
});

test('a bad request is a 400 naming the field', async () => {
  const bad = await api('POST', '/vm/instances', { region: 'nowhere', type: 'g6-nanode-1' });
  expect(bad.status).toBe(400);
  expect(bad.body.errors[0].field).toBe('region');
});
