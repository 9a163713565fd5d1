import { defineResource, type FieldError } from './schema.js';

/**
 * A fault rule of the local service's control interface: which requests it
 * takes, what it does to them, how often and for how long. Rules are hostile
 * input like any body: every field is checked here, once.
 */

export const FAULT_ACTIONS = ['error', 'rate_limit', 'latency', 'drop', 'malformed', 'truncate'] as const;
export type FaultAction = (typeof FAULT_ACTIONS)[number];

export const FAULT_METHODS = ['*', 'GET', 'POST', 'PUT', 'DELETE'] as const;

/** Settings each only one action reads: given with another action they would be silently meaningless. */
const ACTION_OF: Readonly<Record<string, FaultAction>> = { status: 'error', reason: 'error', retry_after: 'rate_limit' };

const onlyWithTheirAction = (body: Record<string, unknown>): FieldError[] => {
  const errors: FieldError[] = [];
  for (const [field, action] of Object.entries(ACTION_OF)) {
    if (body[field] !== undefined && body.action !== undefined && body.action !== action) {
      errors.push({ field, reason: `${field} applies to action ${action} only` });
    }
  }
  if (body.action === 'latency' && (body.latency_ms === undefined || body.latency_ms === 0)) {
    errors.push({ field: 'latency_ms', reason: 'latency_ms is required for action latency, at least 1' });
  }
  return errors;
};

export const FaultRule = defineResource(
  'fault_rule',
  {
    method: { kind: 'enum', title: 'Method', values: FAULT_METHODS, default: '*' },
    path: {
      kind: 'string',
      title: 'Path glob',
      help: 'The path as the client sends it, without the query; * matches any characters, / included',
      required: true,
      minLength: 1,
      maxLength: 512,
      check: (v) => (v.startsWith('/') || v.startsWith('*') ? null : 'path must start with / or *'),
    },
    action: { kind: 'enum', title: 'Action', values: FAULT_ACTIONS, required: true },
    status: { kind: 'integer', title: 'Status', min: 400, max: 599 },
    reason: { kind: 'string', title: 'Reason', minLength: 1, maxLength: 500 },
    retry_after: { kind: 'integer', title: 'Retry-After (s)', min: 0, max: 86_400 },
    latency_ms: { kind: 'integer', title: 'Latency (ms)', help: 'With action latency the delay itself; with any other, a delay before it', min: 0, max: 60_000 },
    probability: { kind: 'number', title: 'Probability', min: 0, max: 1 },
    seed: { kind: 'integer', title: 'Seed', min: 0, max: 0xffff_ffff },
    count: { kind: 'integer', title: 'Next N requests', min: 1, max: 1_000_000 },
    expires_in: { kind: 'integer', title: 'Expires in (s)', min: 1, max: 7 * 86_400 },
    only_when_named: { kind: 'boolean', title: 'Only with X-Vm-Fault', default: false },
  },
  [onlyWithTheirAction],
);
