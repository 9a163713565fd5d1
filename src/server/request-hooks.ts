import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Accounts } from './accounts.js';
import { ApiError } from './errors.js';
import { FAULT_HEADER, type Fault, type FaultRules } from './faults.js';
import { Trace, type Journal } from './journal.js';
import { sendError } from './route.js';

/** The control interface's prefix: never journaled, never faulted, so a test can always see and undo what it did. */
export const CONTROL_PREFIX = '/__control';

/** What a malformed fault answers with: what a misbehaving proxy sends in place of the JSON. */
export const MALFORMED_BODY = '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>\n';

/** The rule an X-Vm-Fault header names; a header naming none is the test's mistake, answered 400 rather than silently unfaulted. */
function namedRule(req: FastifyRequest, faults: FaultRules): number | undefined {
  const header = req.headers[FAULT_HEADER];
  if (header === undefined) return undefined;
  const id = typeof header === 'string' && /^\s*\d{1,9}\s*$/.test(header) ? Number(header) : NaN;
  if (!faults.has(id)) {
    const shown = String(header).slice(0, 40);
    throw new ApiError(400, [{ field: 'X-Vm-Fault', reason: `X-Vm-Fault names no fault rule: ${JSON.stringify(shown)}; GET /__control/faults lists them` }]);
  }
  return id;
}

/** A truncated body: the headers promise the whole answer, half of it comes, then the connection closes. */
function truncate(req: FastifyRequest, reply: FastifyReply, payload: unknown, journal: Journal): void {
  const bytes = Buffer.from(typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload : JSON.stringify(payload ?? {}));
  reply.hijack();
  const res = reply.raw;
  const headers = { 'content-type': 'application/json; charset=utf-8', ...(reply.getHeaders() as OutgoingHttpHeaders) };
  res.writeHead(reply.statusCode, { ...headers, 'content-length': String(bytes.length), connection: 'close' });
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
  res.socket?.end();
  journal.record(req.trace!, reply.statusCode);
}

/**
 * Spoils this one reply's body as it is sent. Only a faulted reply is
 * touched, so the request path of every other keeps no onSend hook.
 */
function mangle(reply: FastifyReply, action: 'malformed' | 'truncate', journal: Journal): void {
  const send = reply.send.bind(reply);
  reply.send = (payload?: unknown) => {
    reply.send = send;
    if (action === 'truncate') {
      truncate(reply.request, reply, payload, journal);
      return reply;
    }
    if (!reply.hasHeader('content-type')) reply.type('application/json; charset=utf-8');
    return send(MALFORMED_BODY);
  };
}

/**
 * The request path's own hooks: each request is given its account (by its
 * token), and each outside the control interface is traced for that
 * account's journal and offered to that account's fault rules. With no rule
 * and no stream listening, the cost is one small object per request; its
 * entry is written out only when the journal is read.
 */
export function observeRequests(app: FastifyInstance, accounts: Accounts): void {
  app.decorateRequest('trace', null);
  app.decorateRequest('account', null as never);

  const applyFault = (req: FastifyRequest, reply: FastifyReply, fault: Fault, done: () => void) => {
    const { journal } = req.account;
    switch (fault.action) {
      case 'latency':
        return done();
      case 'malformed':
      case 'truncate':
        mangle(reply, fault.action, journal);
        return done();
      case 'drop':
        reply.hijack();
        req.raw.socket.destroy();
        return journal.record(req.trace!, null);
      default:
        sendError(reply, new ApiError(fault.status, [{ reason: fault.reason }], fault.action === 'rate_limit' ? { 'Retry-After': String(fault.retryAfter) } : {}));
    }
  };

  app.addHook('onRequest', (req, reply, done) => {
    const account = (req.account = accounts.ofRequest(req));
    // HTTP's Date is the origin's time: the account's clock, so a client sees how far a moved clock is from its own.
    reply.header('Date', new Date(account.store.clock.now()).toUTCString());
    const url = req.originalUrl;
    if (url.startsWith(CONTROL_PREFIX)) return done();
    const { faults } = account;
    const trace = (req.trace = new Trace(req.method, url, req.headers.authorization));
    if (faults.empty && req.headers[FAULT_HEADER] === undefined) return done();
    let fault: Fault | undefined;
    try {
      fault = faults.pick(req.method, url.split('?', 1)[0]!, namedRule(req, faults));
    } catch (err) {
      sendError(reply, err as ApiError);
      return;
    }
    if (!fault) return done();
    trace.fault = fault.rule;
    if (fault.latencyMs > 0) setTimeout(() => applyFault(req, reply, fault, done), fault.latencyMs);
    else applyFault(req, reply, fault, done);
  });

  app.addHook('onResponse', (req, reply, done) => {
    if (req.trace) req.account.journal.record(req.trace, reply.statusCode);
    done();
  });
  // A client that gave up (a timeout during a latency fault) is a request too: the journal says it got no answer.
  app.addHook('onRequestAbort', (req, done) => {
    if (req.trace) req.account.journal.record(req.trace, null);
    done();
  });
}
