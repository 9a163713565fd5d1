import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { ApiError, badRequest } from '../errors.js';
import { JOURNAL_SIZE, type JournalEntry } from '../journal.js';
import { CONTROL_PREFIX } from '../request-hooks.js';
import { sendError, type Ctx } from '../route.js';
import { checkControlRequest, mountControlRoutes } from './control.js';

/** The calling account's request journal under /__control/requests: a page of entries, or their live stream as server-sent events. */

const LIMIT_DEFAULT = 100;
/** What a stream client may have waiting for it (bytes not yet taken); the entries after wait in the journal until it drains. */
const STREAM_BACKLOG_MAX = 1024 * 1024;
/** Entries written at a time while a client catches up. */
const STREAM_BATCH = 50;
const HEARTBEAT_MS = 15_000;

function wholeNumber(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value) || Number(value) < min || Number(value) > max) {
    throw badRequest(`${name} must be an integer between ${min} and ${max}`, name);
  }
  return Number(value);
}

export const sinceOf = (value: unknown) => wholeNumber(value, 'since', 0, Number.MAX_SAFE_INTEGER);

const frame = (entry: JournalEntry) => `id: ${entry.id}\nevent: request\ndata: ${JSON.stringify(entry)}\n\n`;

export function mountControlJournal(app: FastifyInstance): void {
  mountControlRoutes(app, [
    ['GET', '/requests', (ctx: Ctx) => {
      const { journal } = ctx.account;
      const limit = wholeNumber(ctx.query.limit, 'limit', 1, JOURNAL_SIZE) ?? LIMIT_DEFAULT;
      const data = journal.list(limit, sinceOf(ctx.query.since));
      return { data, latest: journal.latestId, kept: JOURNAL_SIZE, streams: journal.streams };
    }],
  ]);

  const open = new Set<ServerResponse>();
  // A stream never ends by itself: the service's close ends them, or it would wait on them.
  app.addHook('preClose', (done) => {
    for (const res of open) res.end();
    done();
  });

  app.get(`${CONTROL_PREFIX}/requests/stream`, (req, reply) => {
    const { account } = req;
    const { journal } = account;
    let since: number | undefined;
    try {
      checkControlRequest(req);
      // A reconnecting EventSource sends the last id it saw.
      since = sinceOf((req.query as Record<string, unknown>).since) ?? sinceOf(req.headers['last-event-id']);
    } catch (err) {
      return sendError(reply, err as ApiError);
    }
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    res.write(': vmtui request journal\n\n');
    // Nothing is written once the stream is over: a write after the end is an error event on the response.
    const write = (text: string) => {
      if (!res.writableEnded && !res.destroyed) res.write(text);
    };
    // The id of the last entry written; a new client starts with the next one, a returning one after what it saw (of what is kept).
    let sent = since === undefined ? journal.latestId : Math.max(since, journal.oldestId - 1);
    // Written at the client's pace: past the backlog the rest waits in the journal for the socket to drain, so a replay of
    // a thousand entries or a slow reader costs the service at most the backlog. A client so slow that entries it has not
    // been sent left the journal is cut off: reconnecting with Last-Event-ID it finds their ids missing. Destroyed, not
    // ended, so its backlog is dropped at once; the event cut short is not dispatched (an event ends with its blank line).
    const pump = () => {
      if (journal.oldestId > sent + 1) return void res.destroy();
      while (!res.destroyed && res.writableLength <= STREAM_BACKLOG_MAX) {
        const batch = journal.list(STREAM_BATCH, sent);
        if (batch.length === 0) return;
        for (const entry of batch) write(frame(entry));
        sent = batch.at(-1)!.id;
      }
    };
    pump();
    const unsubscribe = journal.subscribe(pump);
    res.on('drain', pump);
    const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    open.add(res);
    // A removed account's stream ends with it.
    const forget = account.onClose(() => res.end());
    res.on('close', () => {
      unsubscribe();
      forget();
      clearInterval(heartbeat);
      open.delete(res);
    });
  });
}
