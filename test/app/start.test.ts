import { describe, expect, it } from 'vitest';
import { addressIfCome } from '../../src/app/start.js';

const connection = { baseUrl: 'http://127.0.0.1:4000/v4', betaUrl: 'http://127.0.0.1:4000/v4beta', token: 't' };

describe('the embedded service address before the first frame', () => {
  it('is taken when it has come', async () => {
    expect(await addressIfCome(Promise.resolve(connection))).toBe(connection.baseUrl);
  });

  it('is not waited for when it has not, nor when the service failed', async () => {
    expect(await addressIfCome(new Promise(() => {}))).toBeUndefined();
    expect(await addressIfCome(Promise.reject(new Error('no port')))).toBeUndefined();
  });
});
