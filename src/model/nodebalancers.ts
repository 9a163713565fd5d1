import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { pemCertificate, pemPrivateKey, privateNodeAddress } from './formats.js';
import { REDACTED, checkField, defineResource, formFields, type FieldError, type FieldSpec } from './schema.js';

export const NB_PROTOCOLS = ['http', 'https', 'tcp'] as const;
export const NB_ALGORITHMS = ['roundrobin', 'leastconn', 'source'] as const;
export const NB_STICKINESS = ['none', 'table', 'http_cookie'] as const;
export const NB_CHECKS = ['none', 'connection', 'http', 'http_body'] as const;
export const NB_CIPHER_SUITES = ['recommended', 'legacy'] as const;
export const NB_PROXY_PROTOCOLS = ['none', 'v1', 'v2'] as const;
export const NB_NODE_MODES = ['accept', 'reject', 'drain', 'backup'] as const;
export const NB_NODE_STATUSES = ['unknown', 'UP', 'DOWN'] as const;

export type NbProtocol = (typeof NB_PROTOCOLS)[number];

const balancerLabel = (v: string) => (/^[A-Za-z0-9_-]+$/.test(v) ? null : 'label may contain only letters, digits, dashes and underscores');
const nodeLabel = (v: string) => (/^[A-Za-z0-9._-]+$/.test(v) ? null : 'label may contain only letters, digits, dashes, underscores and periods');
const checkPath = (v: string) => (/^[A-Za-z0-9/%?&=.-]*$/.test(v) ? null : 'check_path may contain only letters, digits and / - % ? & = .');

const readOnly = (kind: FieldSpec['kind'], extra: Partial<FieldSpec> = {}): FieldSpec => ({ kind, readOnly: true, ...extra });

/** Defaults a new config gets for every field the request leaves out (stickiness depends on the protocol). */
export const CONFIG_DEFAULTS = {
  port: 80,
  protocol: 'http' as NbProtocol,
  algorithm: 'roundrobin',
  check: 'none',
  check_attempts: 3,
  check_interval: 5,
  check_timeout: 3,
  check_path: '',
  check_body: '',
  check_passive: true,
  cipher_suite: 'recommended',
  proxy_protocol: 'none',
  ssl_cert: null,
  ssl_key: null,
};

export const defaultStickiness = (protocol: unknown) => (protocol === 'tcp' ? 'none' : 'table');

/** Every field of a config nobody has set yet. */
export const newConfigBase = (protocol: unknown): Record<string, unknown> => ({ ...CONFIG_DEFAULTS, stickiness: defaultStickiness(protocol ?? CONFIG_DEFAULTS.protocol) });

export const NODE_DEFAULTS = { weight: 50, mode: 'accept' };

const nodeFields: Record<string, FieldSpec> = {
  id: readOnly('integer', { title: 'ID' }),
  address: {
    kind: 'string',
    title: 'Address',
    help: 'Private IPv4 of the backend, optionally with :port (the config port when omitted)',
    required: true,
    check: privateNodeAddress,
  },
  label: { kind: 'string', title: 'Label', help: '3..32 letters, digits, dashes, underscores, periods', required: true, minLength: 3, maxLength: 32, check: nodeLabel },
  status: readOnly('enum', { title: 'Status', values: NB_NODE_STATUSES }),
  weight: { kind: 'integer', title: 'Weight', help: '1..255; higher weight gets more traffic', min: 1, max: 255, default: NODE_DEFAULTS.weight },
  mode: {
    kind: 'enum',
    title: 'Mode',
    help: 'accept takes traffic; reject none; drain only pinned connections; backup only when all accept nodes are down',
    values: NB_NODE_MODES,
    default: NODE_DEFAULTS.mode,
  },
  config_id: readOnly('integer', { title: 'Config' }),
  nodebalancer_id: readOnly('integer', { title: 'Load balancer' }),
  // Later releases give the port apart; 4.83.1 writes it into the address (joinNodePort).
  port: { kind: 'integer', min: 1, max: 65535, later: true },
};

/** A backend of one config (port). */
export const NBNode = defineResource('nb_node', nodeFields);

const configFields: Record<string, FieldSpec> = {
  id: readOnly('integer', { title: 'ID' }),
  port: { kind: 'integer', title: 'Port', help: '1..65535, unique among the balancer\'s configs', min: 1, max: 65535, default: CONFIG_DEFAULTS.port },
  protocol: { kind: 'enum', title: 'Protocol', help: 'https needs ssl_cert and ssl_key', values: NB_PROTOCOLS, default: CONFIG_DEFAULTS.protocol },
  algorithm: { kind: 'enum', title: 'Algorithm', values: NB_ALGORITHMS, default: CONFIG_DEFAULTS.algorithm },
  stickiness: {
    kind: 'enum',
    title: 'Stickiness',
    help: 'Default table (http, https) or none (tcp); http_cookie needs http or https',
    values: NB_STICKINESS,
  },
  check: { kind: 'enum', title: 'Health check', values: NB_CHECKS, default: CONFIG_DEFAULTS.check },
  check_interval: {
    kind: 'integer',
    title: 'Check interval (s)',
    help: '2..3600 seconds between checks; more than the check timeout',
    min: 2,
    max: 3600,
    default: CONFIG_DEFAULTS.check_interval,
  },
  check_timeout: { kind: 'integer', title: 'Check timeout (s)', help: '1..30 seconds', min: 1, max: 30, default: CONFIG_DEFAULTS.check_timeout },
  check_attempts: { kind: 'integer', title: 'Check attempts', help: '1..30 failures before a backend is down', min: 1, max: 30, default: CONFIG_DEFAULTS.check_attempts },
  check_path: { kind: 'string', title: 'Check path', help: 'URL path probed by http checks, e.g. /health', check: checkPath, default: CONFIG_DEFAULTS.check_path },
  check_body: { kind: 'string', title: 'Check body', help: 'Text the http_body check expects in the response', default: CONFIG_DEFAULTS.check_body },
  check_passive: { kind: 'boolean', title: 'Passive checks', help: 'A 5xx response marks the backend unhealthy', default: CONFIG_DEFAULTS.check_passive },
  proxy_protocol: { kind: 'enum', title: 'Proxy protocol', values: NB_PROXY_PROTOCOLS, default: CONFIG_DEFAULTS.proxy_protocol },
  cipher_suite: { kind: 'enum', title: 'Cipher suite', help: 'legacy is insecure', values: NB_CIPHER_SUITES, default: CONFIG_DEFAULTS.cipher_suite },
  nodebalancer_id: readOnly('integer', { title: 'Load balancer' }),
  ssl_commonname: readOnly('string', { title: 'Certificate name', nullable: true }),
  ssl_fingerprint: readOnly('string', { title: 'Certificate fingerprint', nullable: true }),
  ssl_cert: {
    kind: 'string',
    title: 'SSL certificate',
    help: 'PEM certificate (or certificate plus chain); https only',
    nullable: true,
    redacted: true,
    check: pemCertificate,
  },
  ssl_key: { kind: 'string', title: 'SSL private key', help: 'PEM private key; https only', nullable: true, redacted: true, secret: true, check: pemPrivateKey },
  nodes_status: readOnly('object', {
    title: 'Backends',
    fields: { up: readOnly('integer', { title: 'Up' }), down: readOnly('integer', { title: 'Down' }) },
  }),
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function parseCert(pem: string): X509Certificate | null {
  try {
    return new X509Certificate(pem);
  } catch {
    return null;
  }
}

function parseKey(pem: string): KeyObject | null {
  try {
    return createPrivateKey(pem);
  } catch {
    return null;
  }
}

/** What a config shows of its certificate: the subject's common name and the SHA-256 fingerprint. */
export function certificateInfo(pem: string): { commonname: string; fingerprint: string } | null {
  const cert = parseCert(pem);
  if (!cert) return null;
  const cn = /^CN=(.*)$/m.exec(cert.subject)?.[1];
  return { commonname: cn ?? cert.subject.replace(/\n/g, ', '), fingerprint: cert.fingerprint256 };
}

/** The certificate and key of an https config: each must parse, and the key must belong to the certificate. */
function tlsErrors(body: Record<string, unknown>, cert: unknown, key: unknown, prefix: string): FieldError[] {
  const errors: FieldError[] = [];
  let x509: X509Certificate | null = null;
  let keyObject: KeyObject | null = null;
  if (typeof cert === 'string' && pemCertificate(cert) === null) {
    x509 = parseCert(cert);
    if (!x509 && body.ssl_cert !== undefined) errors.push({ field: `${prefix}ssl_cert`, reason: 'ssl_cert is not a valid certificate' });
  }
  if (typeof key === 'string' && pemPrivateKey(key) === null) {
    keyObject = parseKey(key);
    if (!keyObject && body.ssl_key !== undefined) errors.push({ field: `${prefix}ssl_key`, reason: 'ssl_key is not a valid private key' });
  }
  const changed = body.ssl_cert !== undefined || body.ssl_key !== undefined;
  if (changed && x509 && keyObject && !x509.checkPrivateKey(keyObject)) {
    errors.push({ field: `${prefix}ssl_key`, reason: 'ssl_key does not match ssl_cert' });
  }
  return errors;
}

/**
 * The rules of one config that span fields, checked on the config as it will
 * be (the stored one with the request applied, or the defaults on create):
 * https needs a certificate and key that parse and match, http and tcp take
 * none, http_cookie stickiness needs http or https, and checks run more often
 * than they time out.
 */
export function configErrors(body: Record<string, unknown>, current: Record<string, unknown> | undefined, prefix = ''): FieldError[] {
  const eff = { ...(current ?? newConfigBase(body.protocol)), ...body };
  const errors: FieldError[] = [];
  const protocol = eff.protocol;
  if (protocol === 'https') {
    for (const f of ['ssl_cert', 'ssl_key']) {
      if (eff[f] === null || eff[f] === undefined) errors.push({ field: `${prefix}${f}`, reason: `${f} is required when protocol is https` });
    }
    errors.push(...tlsErrors(body, eff.ssl_cert, eff.ssl_key, prefix));
  } else if (protocol === 'http' || protocol === 'tcp') {
    for (const f of ['ssl_cert', 'ssl_key']) {
      if (body[f] !== undefined && body[f] !== null) errors.push({ field: `${prefix}${f}`, reason: `${f} is not supported with protocol ${protocol}` });
    }
  }
  if (eff.stickiness === 'http_cookie' && protocol === 'tcp') {
    errors.push({ field: `${prefix}stickiness`, reason: 'stickiness http_cookie needs protocol http or https' });
  }
  // Only values that pass their own checks are compared, so a bad one is reported once.
  const valid = (f: string) => eff[f] !== undefined && checkField(configFields[f]!, eff[f], f).length === 0;
  if (valid('check_interval') && valid('check_timeout') && (eff.check_interval as number) <= (eff.check_timeout as number)) {
    const field = body.check_interval !== undefined || body.check_timeout === undefined ? 'check_interval' : 'check_timeout';
    errors.push({ field: `${prefix}${field}`, reason: 'check_interval must be greater than check_timeout' });
  }
  return errors;
}

const nodesSpec = (fields: Record<string, FieldSpec>): FieldSpec => ({
  kind: 'array',
  title: 'Backends',
  help: 'At least one node',
  required: true,
  minItems: 1,
  items: { kind: 'object', title: 'Node', fields },
});

/** One port of a balancer. */
export const NBConfig = defineResource(
  'nb_config',
  // Later releases create a config with its nodes, as 4.83.1's balancer create does.
  { ...configFields, nodes: { ...nodesSpec(nodeFields), required: false, createOnly: true, later: true } },
  [(body, ctx) => configErrors(body, ctx.current)],
);

/** The fields a request may set on a config or a node, in schema order. */
export const CONFIG_WRITABLE = formFields(NBConfig, 'create').map(([k]) => k);
export const NODE_WRITABLE = formFields(NBNode, 'create').map(([k]) => k);

/**
 * A client that read a config back and sends it again echoes <REDACTED>; that
 * means "keep what is stored", so it is dropped before validation.
 */
export function withoutRedactedEcho(body: unknown, current: Record<string, unknown> | undefined): unknown {
  if (!isObject(body) || !current) return body;
  const out = { ...body };
  for (const f of ['ssl_cert', 'ssl_key']) if (out[f] === REDACTED && current[f]) delete out[f];
  return out;
}

/** Ports that appear more than once in a list of configs, reported at each repeat. */
function duplicatePorts(configs: unknown[], prefix: string): FieldError[] {
  const seen = new Set<number>();
  const errors: FieldError[] = [];
  configs.forEach((c, i) => {
    const port = isObject(c) && c.port !== undefined ? c.port : CONFIG_DEFAULTS.port;
    if (typeof port !== 'number') return;
    if (seen.has(port)) errors.push({ field: `${prefix}${i}.port`, reason: `port ${port} is used by another config` });
    seen.add(port);
  });
  return errors;
}

/** A load balancer as the API returns it. */
export interface NodeBalancerResponse {
  id: number;
  label: string;
  region: string;
  hostname: string;
  ipv4: string;
  ipv6: string | null;
  created: string;
  updated: string;
  client_conn_throttle: number;
  transfer: { total: number | null; out: number | null; in: number | null };
  tags: string[];
}

export const NodeBalancer = defineResource(
  'nodebalancer',
  {
    id: readOnly('integer', { title: 'ID' }),
    label: {
      kind: 'string',
      title: 'Label',
      help: '3..32 letters, digits, dashes, underscores; unique on the account',
      minLength: 3,
      maxLength: 32,
      check: balancerLabel,
      filterable: true,
    },
    region: { kind: 'string', title: 'Region', help: 'A region with the NodeBalancers capability; fixed once created', required: true, createOnly: true, filterable: true },
    hostname: readOnly('string', { title: 'Hostname' }),
    ipv4: readOnly('string', { title: 'IPv4' }),
    ipv6: readOnly('string', { title: 'IPv6', nullable: true }),
    created: readOnly('datetime', { title: 'Created' }),
    updated: readOnly('datetime', { title: 'Updated' }),
    client_conn_throttle: {
      kind: 'integer',
      title: 'Connection throttle',
      help: '0..20 connections per second per client; 0 disables throttling',
      min: 0,
      max: 20,
      default: 0,
    },
    transfer: readOnly('object', {
      title: 'Transfer this month (MB)',
      fields: {
        total: readOnly('number', { nullable: true }),
        out: readOnly('number', { nullable: true }),
        in: readOnly('number', { nullable: true }),
      },
    }),
    tags: { kind: 'array', title: 'Tags', items: { kind: 'string', minLength: 3, maxLength: 50 }, updateOnly: true, laterOnCreate: true, filterable: true },
    configs: {
      kind: 'array',
      title: 'Ports',
      help: 'Each config needs a unique port and at least one node',
      createOnly: true,
      writeOnly: true,
      items: { kind: 'object', title: 'Config', fields: { ...configFields, nodes: nodesSpec(nodeFields) } },
    },
  },
  [
    (body) => {
      if (!Array.isArray(body.configs)) return [];
      return [
        ...body.configs.flatMap((c, i) => (isObject(c) ? configErrors(c, undefined, `configs.${i}.`) : [])),
        ...duplicatePorts(body.configs, 'configs.'),
      ];
    },
  ],
);

const rebuildNodeFields: Record<string, FieldSpec> = {
  ...nodeFields,
  id: { kind: 'integer', title: 'Node ID', help: 'An existing node to update; omit to create a node', min: 1 },
  address: { ...nodeFields.address!, required: false },
  label: { ...nodeFields.label!, required: false },
};

/**
 * Body of the rebuild action: `configs` holds the one config at the path, with
 * its complete node list. Nodes with an id are updated, nodes without one are
 * created (address and label then required), stored nodes left out are deleted.
 */
export const NBConfigRebuild = defineResource(
  'nb_config_rebuild',
  {
    configs: {
      kind: 'array',
      title: 'Config',
      required: true,
      minItems: 1,
      items: { kind: 'object', title: 'Config', fields: { ...configFields, nodes: nodesSpec(rebuildNodeFields) } },
    },
  },
  [
    (body, ctx) => {
      if (!Array.isArray(body.configs)) return [];
      const errors: FieldError[] = [];
      if (body.configs.length > 1) errors.push({ field: 'configs', reason: 'configs must hold exactly one config: the one being rebuilt' });
      const config = body.configs[0];
      if (!isObject(config)) return errors;
      errors.push(...configErrors(config, ctx.current, 'configs.0.'));
      if (Array.isArray(config.nodes)) {
        config.nodes.forEach((node, i) => {
          if (!isObject(node) || node.id !== undefined) return;
          for (const f of ['address', 'label']) {
            if (node[f] === undefined) errors.push({ field: `configs.0.nodes.${i}.${f}`, reason: `configs.0.nodes.${i}.${f} is required for a new node` });
          }
        });
      }
      return errors;
    },
  ],
);
