import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestLog } from '../../src/api/request-log.js';
import { watchSlowWrites } from '../../src/app/slow-writes.js';

const call = (log: RequestLog, method: 'GET' | 'POST' | 'DELETE', path: string) =>
  log.begin({ method, url: new URL(`http://127.0.0.1/v4${path}`), path, root: 'base', attempt: 1, headers: {} });

describe('slow writes', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says a write is waiting after 3 s, again every 10 s until its answer, and never for a read', () => {
    const log = new RequestLog();
    const said: string[] = [];
    const stop = watchSlowWrites(log, (text) => said.push(text));
    call(log, 'GET', '/managed/contacts');
    const del = call(log, 'DELETE', '/managed/contacts/6');
    vi.advanceTimersByTime(2999);
    expect(said).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(said).toEqual(['Still waiting for the server: DELETE /managed/contacts/6 was sent 3 s ago and has no answer yet; it is sent once, never again']);
    vi.advanceTimersByTime(10_000);
    expect(said[1]).toMatch(/DELETE \/managed\/contacts\/6 was sent 13 s ago/);
    log.finish(del, { status: 200, text: '{}' });
    vi.advanceTimersByTime(60_000);
    expect(said).toHaveLength(2);
    stop();
  });

  it('a write answered in time says nothing; stopping ends every reminder', () => {
    const log = new RequestLog();
    const said: string[] = [];
    const stop = watchSlowWrites(log, (text) => said.push(text));
    log.finish(call(log, 'POST', '/managed/contacts'), { status: 200, text: '{}' });
    call(log, 'POST', '/managed/contacts');
    stop();
    vi.advanceTimersByTime(60_000);
    expect(said).toEqual([]);
  });
});
